import { labelKeys } from "~/lib/label-keys";
import { westernDigits } from "~/lib/western-digits";

export const LEDGER_KINDS = [
  "admin_adjustment",
  "coin_purchase",
  "order_payment",
  "order_refund",
  "renewal",
  "legacy_import",
  // A change of a service's plan: a debit for an upgrade, a credit for a downgrade (migration 0053).
  "plan_change",
  // A referrer's reward for a customer they brought (migration 0060, docs/referrals.md).
  "referral_reward",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
/** Catalogue keys (coins namespace), one family (docs/i18n.md, ADR 26). */
export const LEDGER_KIND_LABELS = labelKeys("coins", "kinds", LEDGER_KINDS);

/** Largest single admin change, €1,000,000: a typo guard, not a business limit. */
export const MAX_ADJUSTMENT_CENTS = 100_000_000;

/**
 * Largest balance an account can hold, €10,000,000. Enforced where every coin moves (postLedgerEntry) and
 * by the database (migration 0019), so repeated credits, each within MAX_ADJUSTMENT_CENTS, can never
 * overflow the balance column (a 32-bit integer on PostgreSQL, at most 2,147,483,647 cents).
 */
export const MAX_BALANCE_CENTS = 1_000_000_000;

/** Parses "12", "12.5", "-3,25", "١٢" (coins, 1 coin = €1.00) into integer cents, or null. */
export function parseCoinAmount(input: string): number | null {
  const text = westernDigits(input).trim().replace(",", ".");
  if (!/^[+-]?\d{1,9}(\.\d{1,2})?$/.test(text)) return null;
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace(/^[+-]/, "").split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return negative ? -cents : cents;
}

/**
 * Why an admin's amount that `parseCoinAmount` or the limits refused is wrong, for the message: beyond
 * MAX_ADJUSTMENT_CENTS either way, more than two decimals, or not an amount (or zero).
 */
export function coinAmountFault(input: string): "tooLarge" | "tooPrecise" | "invalid" {
  const number = /^[+-]?(\d+)(?:\.(\d+))?$/.exec(westernDigits(input).trim().replace(",", "."));
  if (!number) return "invalid";
  if ((number[2] ?? "").length > 2) return "tooPrecise";
  const cents = Number(number[1]) * 100 + Number((number[2] ?? "").padEnd(2, "0"));
  return cents > MAX_ADJUSTMENT_CENTS ? "tooLarge" : "invalid";
}

/**
 * The balance after an admin change. The total never goes below 0: removing more than the balance removes
 * down to 0 (spec section 5, "clamped to at least 0"), and the dialog says how much was really removed.
 */
export function previewAdjustment(balanceCents: number, amountCents: number) {
  const newTotalCents = Math.max(0, balanceCents + amountCents);
  return {
    newTotalCents,
    appliedCents: newTotalCents - balanceCents,
    clamped: balanceCents + amountCents < 0,
    /** The change would take the balance past MAX_BALANCE_CENTS: it is refused. */
    overMaximum: newTotalCents > MAX_BALANCE_CENTS && newTotalCents > balanceCents,
  };
}
