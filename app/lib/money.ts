/** Money is integer cents everywhere; these only format it. 1 coin = €1.00. */

const intlLocale: Record<string, string> = { en: "en-IE", fr: "fr-FR", ar: "ar-MA" };

export function formatEuros(cents: number, locale = "en"): string {
  return new Intl.NumberFormat(intlLocale[locale] ?? "en-IE", {
    style: "currency",
    currency: "EUR",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}

export function formatCoins(cents: number, locale = "en"): string {
  return new Intl.NumberFormat(intlLocale[locale] ?? "en-IE", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}
