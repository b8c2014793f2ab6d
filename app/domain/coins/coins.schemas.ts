import { customIssue, requiredText, z } from "~/lib/zod";
import { coinAmountFault, MAX_ADJUSTMENT_CENTS, parseCoinAmount } from "./coins";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** What an admin's change of coins says when refused: its limit, its precision, or its form. */
const CHANGE_FAULTS = {
  tooLarge: "coins.errors.amountTooLarge",
  tooPrecise: "coins.errors.amountTooPrecise",
  invalid: "coins.errors.amountInvalid",
} as const;

/**
 * An admin's amount of coins as typed, into cents: not zero, at most MAX_ADJUSTMENT_CENTS either way;
 * `credit` admits only additions (a ticket's credit).
 */
export function coinAmountSchema(options: { credit?: boolean } = {}) {
  return z.string({ error: "coins.errors.amountInvalid" }).transform((value, ctx) => {
    const cents = parseCoinAmount(value);
    if (
      cents === null ||
      cents === 0 ||
      Math.abs(cents) > MAX_ADJUSTMENT_CENTS ||
      (options.credit && cents < 0)
    ) {
      customIssue(
        ctx,
        options.credit ? "coins.errors.creditInvalid" : CHANGE_FAULTS[coinAmountFault(value)],
      );
      return z.NEVER;
    }
    return cents;
  });
}

/**
 * The random key a coin form carries (one per form shown): a replayed post (a double click, a retry, the
 * browser resending) changes the balance once and gets the first result back (ADR 10).
 */
export const coinFormKeySchema = z
  .string({ error: "coins.errors.formExpired" })
  .trim()
  .min(16, "coins.errors.formExpired")
  .max(100, "coins.errors.formExpired");

export const adjustCoinsSchema = z.object({
  userId: z
    .string({ error: "coins.errors.userRequired" })
    .trim()
    .min(1, "coins.errors.userRequired")
    .max(100),
  amount: coinAmountSchema(),
  idempotencyKey: coinFormKeySchema,
  reason: requiredText("coins.errors.reasonRequired", 500, "coins.errors.reasonTooLong"),
});
