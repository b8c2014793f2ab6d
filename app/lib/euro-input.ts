import { westernDigits } from "./western-digits";

/**
 * Euros typed by an admin ("2.5", "2,50", "4.99", "€12") read into integer cents with string arithmetic
 * only, so no amount ever goes through a float. Each refusal has its own reason, for a clear message.
 */

/** Why typed euros were refused, one reason each (every euro field's messages are keyed by these). */
export const EURO_INPUT_REFUSALS = [
  "required",
  "invalid",
  "negative",
  "decimals",
  "tooLarge",
] as const;
export type EuroInputError = (typeof EURO_INPUT_REFUSALS)[number];

export type EuroInput = { ok: true; cents: number } | { ok: false; error: EuroInputError };

export function parseEuroInput(input: string, maxCents: number): EuroInput {
  // A euro sign and spaces around the number are allowed; thousands separators are not (is "1,000"
  // one thousand or one euro?).
  // Bidi marks and narrow spaces come with an amount copied from a formatted French or Arabic price,
  // Arabic-Indic digits from an Arabic keyboard.
  const text = westernDigits(input)
    .replace(/[\u200e\u200f\u061c\u2066-\u2069]/g, "")
    .replace(/[\u00a0\u202f]/g, " ")
    .trim()
    .replace(/^€\s*/, "")
    .replace(/\s*€$/, "")
    .trim();
  if (text === "") return { ok: false, error: "required" };
  const match = /^([+-]?)(\d+)(?:[.,](\d+))?$/.exec(text);
  if (!match) return { ok: false, error: "invalid" };
  const [, sign, whole = "", fraction = ""] = match;
  if (sign === "-" && /[1-9]/.test(whole + fraction)) return { ok: false, error: "negative" };
  if (fraction.length > 2) return { ok: false, error: "decimals" };
  // Ten digits of euros already exceed any limit we use; checked before Number() so it stays exact.
  if (whole.replace(/^0+/, "").length > 9) return { ok: false, error: "tooLarge" };
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (cents > maxCents) return { ok: false, error: "tooLarge" };
  return { ok: true, cents };
}

/** Cents as an admin types them back into a form: "4.50", "12.00" (no symbol, a dot, two decimals). */
export function centsToEuroInput(cents: number): string {
  const whole = Math.floor(cents / 100);
  return `${whole}.${String(cents % 100).padStart(2, "0")}`;
}
