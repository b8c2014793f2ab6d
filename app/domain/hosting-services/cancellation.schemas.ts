import { idField } from "~/lib/id-field";
import { optionalNote, requiredText, z } from "~/lib/zod";
import { filterParam, pageParam } from "~/lib/query-params";
import { CANCELLATION_REASONS, REASON_TEXT_MAX, REFUND_FILTERS } from "./cancellation";

// Schemas only (docs/architecture.md): the customer's cancel page's forms and the admins' refund queue.

/** A service's id in the cancel page's address: anything else is no service of theirs. */
export const cancelServiceIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

const reasonFields = {
  reason: z.enum(CANCELLATION_REASONS, { error: "services.cancel.errors.reasonInvalid" }),
  reasonText: optionalNote(REASON_TEXT_MAX, "services.cancel.errors.reasonTooLong"),
};

/**
 * The cancel page's forms: at the end of the term or a refund (each with its reason), and withdrawing
 * the open request ("Keep my server", "Withdraw").
 */
export const cancelFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("end-of-term"), ...reasonFields }),
    z.object({ intent: z.literal("refund"), ...reasonFields }),
    z.object({ intent: z.literal("withdraw") }),
  ],
  { error: "services.cancel.errors.unknownForm" },
);
export type CancelForm = z.infer<typeof cancelFormSchema>;

/** /admin/refunds' decisions: approve a request, or refuse it with a reason the customer is told. */
export const refundDecisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), id: idField("services.refunds.errors.notFound") }),
  z.object({
    intent: z.literal("reject"),
    id: idField("services.refunds.errors.notFound"),
    reason: requiredText(
      "services.refunds.errors.reasonRequired",
      REASON_TEXT_MAX,
      "services.refunds.errors.reasonTooLong",
    ),
  }),
]);
export type RefundDecision = z.infer<typeof refundDecisionSchema>;

/** /admin/refunds' query: the requests waiting by default. */
export const refundQueueQuerySchema = z.object({
  state: filterParam(REFUND_FILTERS),
  page: pageParam,
});
export type RefundQueueQuery = z.infer<typeof refundQueueQuerySchema>;
