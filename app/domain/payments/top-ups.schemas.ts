import { idField } from "~/lib/id-field";
import { filterParam, pageParam } from "~/lib/query-params";
import { requiredText, wholeNumberText, z } from "~/lib/zod";
import { MAX_TOP_UP_COINS } from "./payment-methods";
import { MAX_PAYER_ACCOUNT_LENGTH, MAX_REJECT_REASON_LENGTH, TOP_UP_STATES } from "./top-ups";

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
]);
export type TopUpAction = z.output<typeof topUpActionSchema>;

/** /admin/top-ups: approve (with another number of coins, or the asked one when empty) or reject. */
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
]);
export type TopUpDecision = z.output<typeof topUpDecisionSchema>;

export const topUpQueueQuerySchema = z.object({
  state: filterParam(TOP_UP_STATES),
  // A method's id as the filter's select sends it (a text, so the filter bar shows it as chosen).
  method: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional()
    .catch(undefined),
  page: pageParam,
});
export type TopUpQueueQuery = z.output<typeof topUpQueueQuerySchema>;
