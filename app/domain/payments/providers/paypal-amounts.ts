// PayPal writes money as a decimal string ("12.34") in the currency's own precision; we keep integer
// minor units. Both directions are strict: a value PayPal would refuse (DECIMAL_PRECISION) or one we
// cannot read exactly is never rounded into something else.

/** Currencies PayPal takes without decimals (its currency codes' reference); every other has two. */
const ZERO_DECIMAL_CURRENCIES = new Set(["HUF", "JPY", "TWD"]);

export function currencyDecimals(currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency.toUpperCase()) ? 0 : 2;
}

/** 1234 EUR cents → "12.34"; throws on a negative, fractional or unsafe number of minor units. */
export function toPayPalValue(minorUnits: number, currency: string): string {
  if (!Number.isSafeInteger(minorUnits) || minorUnits < 0)
    throw new RangeError(`Not a whole, non-negative number of minor units: ${minorUnits}`);
  const decimals = currencyDecimals(currency);
  if (decimals === 0) return String(minorUnits);
  const digits = String(minorUnits).padStart(decimals + 1, "0");
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * "12.34" → 1234, "12.3" → 1230, "12" → 1200; null for anything else: a sign, an exponent, spaces,
 * more decimals than the currency has, or more minor units than a number holds exactly.
 */
export function fromPayPalValue(value: unknown, currency: string): number | null {
  if (typeof value !== "string") return null;
  const decimals = currencyDecimals(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return null;
  const [, whole = "", fraction = ""] = match;
  if (fraction.length > decimals) return null;
  const minor = Number(whole + fraction.padEnd(decimals, "0"));
  return Number.isSafeInteger(minor) ? minor : null;
}
