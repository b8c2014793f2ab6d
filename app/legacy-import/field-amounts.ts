import { MAX_ADJUSTMENT_CENTS } from "~/domain/coins/coins";
import { bad, describeJsonValue, isMissing, ok, shown, type Read } from "./field-basics";

const TOO_PRECISE = "has more than two decimals: amounts must be whole cents";

/**
 * Euros (or coins, 1 coin = €1.00) as a number or numeric text, into integer cents, exactly: "4.50" and
 * 4.5 are 450; 0.1 + 0.2 as the old app's floats stored it is 30. An amount that is not whole cents
 * (4.275) is refused rather than rounded: money is never changed silently.
 */
export function readAmountCents(value: unknown): Read<number | null> {
  if (isMissing(value)) return ok(null);
  const read =
    typeof value === "number"
      ? centsOfNumber(value)
      : typeof value === "string"
        ? centsOfText(value)
        : bad(`expected an amount in euros (a number), found ${describeJsonValue(value)}`);
  if (!read.ok) return read;
  const cents = Object.is(read.value, -0) ? 0 : read.value;
  if (Math.abs(cents) > MAX_ADJUSTMENT_CENTS)
    return bad(`${shown(value)} is more than €1,000,000: check it`);
  return ok(cents);
}

function centsOfNumber(value: number): Read<number> {
  if (!Number.isFinite(value)) return bad(`${shown(value)} is not an amount`);
  const raw = value * 100;
  const cents = Math.round(raw);
  // Floats carry tiny errors (4.35 * 100 = 434.99999999999994); more than that is a real fraction.
  if (Math.abs(raw - cents) > 1e-6) return bad(`${shown(value)} ${TOO_PRECISE}`);
  return ok(cents);
}

function centsOfText(value: string): Read<number> {
  const match = /^([+-]?)(\d{1,12})(?:[.,](\d+))?$/.exec(value.trim());
  if (!match) return bad(`${shown(value)} is not an amount (expected a number like 4.50)`);
  const fraction = match[3] ?? "";
  if (fraction.replace(/0+$/, "").length > 2) return bad(`${shown(value)} ${TOO_PRECISE}`);
  const cents = Number(match[2]) * 100 + Number(fraction.slice(0, 2).padEnd(2, "0"));
  return ok(match[1] === "-" ? -cents : cents);
}

export function readPrice(value: unknown, required: boolean): Read<number | null> {
  if (required && isMissing(value)) return bad("required, and missing or empty");
  const amount = readAmountCents(value);
  if (amount.ok && amount.value !== null && amount.value < 0)
    return bad(`${shown(value)} is negative`);
  return amount;
}
