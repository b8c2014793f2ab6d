import { filterParam, pageParam, textParam } from "~/lib/query-params";
import { requiredText, ticked, z } from "~/lib/zod";
import {
  DOCUMENT_KINDS,
  DOCUMENT_NUMBER_PATTERN,
  DOCUMENT_STATES,
  REFUND_METHODS,
  REFUND_REASON_MAX,
} from "./invoices";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** /admin/invoices' query string: a value that does not parse is ignored, never an error. */
export const adminInvoicesQuerySchema = z.object({
  kind: filterParam(DOCUMENT_KINDS),
  state: filterParam(DOCUMENT_STATES),
  /** A number, or a customer's email or name. */
  q: textParam(254),
  page: pageParam,
});
export type AdminInvoicesQuery = z.infer<typeof adminInvoicesQuerySchema>;

/** A document's number as its page's address writes it: anything else is no document. */
export const documentNumberSchema = z.string().trim().toUpperCase().regex(DOCUMENT_NUMBER_PATTERN);

/** The document page's refund form (admins): how the money went back, and why. */
export const refundFormSchema = z.object({
  intent: z.literal("refund"),
  method: z.enum(REFUND_METHODS, "invoices.errors.refundMethodRequired"),
  reason: requiredText(
    "invoices.errors.refundReasonRequired",
    REFUND_REASON_MAX,
    "invoices.errors.refundReasonTooLong",
  ),
  /** A renewal's invoice: take back the term it paid for (ticked by default on the form). */
  takeBackTerm: ticked(),
  /** With the term: switch its automatic renewal off (ticked by default for the lifecycle's renewal). */
  stopAutoRenew: ticked(),
});
export type RefundFormInput = z.infer<typeof refundFormSchema>;
