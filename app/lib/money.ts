/** Money is integer cents everywhere; these only format it. 1 coin = €1.00. */

const intlLocales: Record<string, string> = { en: "en-IE", fr: "fr-FR", ar: "ar-MA" };

/** The Intl locale for a language: Moroccan Arabic formats with Western digits, as customers expect. */
export function intlLocale(locale: string): string {
  return intlLocales[locale] ?? "en-IE";
}

// Making an Intl.NumberFormat costs about 50 µs, using one about 1 µs; a price list or a ledger page
// formats hundreds of amounts, so each language's formatters are made once and kept (three languages).
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(kind: "euros" | "coins" | "compact", locale: string): Intl.NumberFormat {
  const key = `${kind}:${intlLocale(locale)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      intlLocale(locale),
      kind === "coins"
        ? { minimumFractionDigits: 2, maximumFractionDigits: 2 }
        : kind === "euros"
          ? {
              style: "currency",
              currency: "EUR",
              minimumFractionDigits: 2,
              maximumFractionDigits: 2,
            }
          : {
              style: "currency",
              currency: "EUR",
              notation: "compact",
              minimumFractionDigits: 0,
              maximumFractionDigits: 1,
            },
    );
    formatters.set(key, format);
  }
  return format;
}

// Intl writes minus zero as "-0.00" (a clamped removal of nothing was shown as "only -0.00 can be
// removed"): an amount of zero is written without a sign, whatever arithmetic made it.
export function formatEuros(cents: number, locale = "en"): string {
  return formatter("euros", locale).format(cents / 100 || 0);
}

export function formatCoins(cents: number, locale = "en"): string {
  return formatter("coins", locale).format(cents / 100 || 0);
}

/** A short amount for a chart's axis ("€1.2K", "45 €"): a rounded label, never a figure to read from. */
export function formatEurosCompact(cents: number, locale = "en"): string {
  return formatter("compact", locale).format(cents / 100);
}
