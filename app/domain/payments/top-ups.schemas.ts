import { parseEuroInput } from "~/lib/euro-input";
import { idField } from "~/lib/id-field";
import { filterParam, pageParam, textParam } from "~/lib/query-params";
import { customIssue, requiredText, wholeNumberText, z } from "~/lib/zod";
import { AMOUNT_INPUT_ERRORS, MAX_TOP_UP_COINS } from "./payment-methods";
import {
  MAX_PAYER_ACCOUNT_LENGTH,
  MAX_REJECT_REASON_LENGTH,
  TOP_UP_COINS_PARAM,
  TOP_UP_STATES,
} from "./top-ups";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

const requestId = idField("payments.errors.topUpNotFound");

/** A whole number of coins typed or picked; the method's own bounds are the domain's to check. */
const coinsField = wholeNumberText("payments.errors.coinsNotWhole", {
  digits: 6,
  min: 1,
  max: MAX_TOP_UP_COINS,
  outOfRange: "payments.errors.coinsInvalid",
});

/** The customer's page: ask for a top-up, say it is paid, or cancel it. */
export const topUpActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("request"),
    methodId: idField("payments.errors.methodRequired"),
    coins: coinsField,
  }),
  z.object({
    intent: z.literal("paid"),
    requestId,
    payerAccount: requiredText(
      "payments.errors.payerAccountRequired",
      MAX_PAYER_ACCOUNT_LENGTH,
      "payments.errors.payerAccountTooLong",
    ),
    paidOn: z
      .string({ error: "payments.errors.paidOnInvalid" })
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "payments.errors.paidOnInvalid")
      .refine(
        (text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)),
        "payments.errors.paidOnInvalid",
      ),
  }),
  z.object({ intent: z.literal("cancel"), requestId }),
  // The same form for a method paid online: the customer goes to the provider's page to pay.
  z.object({
    intent: z.literal("payOnline"),
    methodId: idField("payments.errors.methodRequired"),
    coins: coinsField,
  }),
]);
export type TopUpFormAction = z.output<typeof topUpActionSchema>;
/** What runTopUpAction does: the form's intents but the online start (online-checkout.server.ts). */
export type TopUpAction = Exclude<TopUpFormAction, { intent: "payOnline" }>;

/** No refund is larger than this (minor units); the domain refuses more than is left. */
const MAX_REFUND_MINOR = 100_000_000;

/**
 * A refund's amount in the payment's currency as typed ("12.50", "12,5"), read into minor units with
 * string arithmetic; 0 is refused as more than is left would be.
 */
const refundAmount = z.string({ error: AMOUNT_INPUT_ERRORS.required }).transform((text, ctx) => {
  const parsed = parseEuroInput(text, MAX_REFUND_MINOR);
  if (parsed.ok && parsed.cents > 0) return parsed.cents;
  customIssue(
    ctx,
    parsed.ok || parsed.error === "tooLarge"
      ? "payments.errors.refundTooLarge"
      : AMOUNT_INPUT_ERRORS[parsed.error],
  );
  return z.NEVER;
});

/**
 * /admin/top-ups: approve (with another number of coins, or the asked one when empty), reject, or refund
 * an amount of a request's online payment through its provider.
 */
export const topUpDecisionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("approve"),
    requestId,
    // Left empty: the coins the customer asked for.
    coins: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      coinsField.optional(),
    ),
  }),
  z.object({
    intent: z.literal("reject"),
    requestId,
    reason: requiredText(
      "payments.errors.reasonRequired",
      MAX_REJECT_REASON_LENGTH,
      "payments.errors.reasonTooLong",
    ),
  }),
  z.object({
    intent: z.literal("refund"),
    paymentId: idField("payments.errors.paymentNotFound"),
    amount: refundAmount,
  }),
]);
export type TopUpDecision = z.output<typeof topUpDecisionSchema>;

/** "3.50" as whole coins, rounded up: 4 (string arithmetic, no float). */
function wholeCoinsUp(text: string): number {
  const [whole = "", fraction = ""] = text.split(".");
  return Number(whole) + (/[1-9]/.test(fraction) ? 1 : 0);
}

/**
 * /dashboard/top-up's query: `coins` (TOP_UP_COINS_PARAM), what a balance is short of in coins with at
 * most two decimals as the "Add coins" links write it ("3.50"), rounded up to whole coins. Anything
 * else (words, a negative or empty amount, zero, more than one top-up may ever buy) is ignored: the
 * form then starts on its default.
 */
export const topUpPageQuerySchema = z.object({
  [TOP_UP_COINS_PARAM]: z
    .string()
    .regex(/^\d{1,6}(?:\.\d{1,2})?$/)
    .transform(wholeCoinsUp)
    .pipe(z.number().int().min(1).max(MAX_TOP_UP_COINS))
    .optional()
    .catch(undefined),
});
export type TopUpPageQuery = z.output<typeof topUpPageQuerySchema>;

export const topUpQueueQuerySchema = z.object({
  state: filterParam(TOP_UP_STATES),
  // A method's id as the filter's select sends it (a text, so the filter bar shows it as chosen).
  method: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional()
    .catch(undefined),
  /** A request's reference, or part of a customer's email or name. */
  q: textParam(254),
  page: pageParam,
});
export type TopUpQueueQuery = z.output<typeof topUpQueueQuerySchema>;

/**
 * /dashboard/top-up/payments/:id's query as a provider's return writes it: PayPal's `token` and
 * `PayerID`, YouCan Pay's `transaction_id` (a hint only), our `cancelled=1` on the cancel address; and
 * `left=1` on the page's own address once the customer came back through the cancel. Anything else is
 * ignored.
 */
export const paymentReturnQuerySchema = z
  .object({
    token: z.string().max(200).optional().catch(undefined),
    PayerID: z.string().max(200).optional().catch(undefined),
    transaction_id: z.string().max(200).optional().catch(undefined),
    cancelled: z.string().optional().catch(undefined),
    left: z.string().optional().catch(undefined),
  })
  .transform((query) => ({
    fromProvider:
      query.token !== undefined ||
      query.PayerID !== undefined ||
      query.transaction_id !== undefined ||
      query.cancelled !== undefined,
    back: { captureHint: query.transaction_id ?? null, cancelled: query.cancelled === "1" },
    left: query.left === "1",
  }));

/** The payment's id in its page's address. */
export const paymentIdSchema = idField("payments.errors.paymentNotFound");
