/** Money is integer cents everywhere; these only format it. 1 coin = €1.00. */

const intlLocales: Record<string, string> = { en: "en-IE", fr: "fr-FR", ar: "ar-MA" };

/** The Intl locale for a language: Moroccan Arabic formats with Western digits, as customers expect. */
export function intlLocale(locale: string): string {
  return intlLocales[locale] ?? "en-IE";
}

export function formatEuros(cents: number, locale = "en"): string {
  return new Intl.NumberFormat(intlLocale(locale), {
    style: "currency",
    currency: "EUR",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}

export function formatCoins(cents: number, locale = "en"): string {
  return new Intl.NumberFormat(intlLocale(locale), {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}

/** A short amount for a chart's axis ("€1.2K", "45 €"): a rounded label, never a figure to read from. */
export function formatEurosCompact(cents: number, locale = "en"): string {
  return new Intl.NumberFormat(intlLocale(locale), {
    style: "currency",
    currency: "EUR",
    notation: "compact",
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(cents / 100);
}
