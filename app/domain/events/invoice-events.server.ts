import { documentPath, type RefundMethod } from "~/domain/invoices/invoices";
import type { DocumentRef } from "~/domain/mail/mail-events";
import type { ReactionTable } from "./reaction.server";

export type InvoiceEvent = {
  /**
   * An admin refunded a paid invoice, whole (`invoice.totalCents`): the coins back on the balance or
   * the money sent back outside the site (`method`), with its credit note. A renewal's term taken back
   * or its automatic renewal switched off is the service's own event (`service.renewalRefunded`).
   */
  type: "invoice.refunded";
  actorId: string;
  invoice: { number: string; userId: string; totalCents: number };
  creditNote: DocumentRef;
  method: RefundMethod;
  reason: string;
};

/** What follows an invoice's refund. */
export const invoiceReactions: ReactionTable<InvoiceEvent> = {
  "invoice.refunded": {
    audit: ({ actorId, invoice, creditNote, method, reason }) => ({
      actorId,
      action: "invoice.refund",
      targetType: "invoice",
      targetId: invoice.number,
      before: { state: "paid" },
      after: {
        state: "credited",
        creditNote: creditNote.number,
        method,
        refundedCents: invoice.totalCents,
      },
      reason,
    }),
    notice: ({ invoice, creditNote }) => ({
      userId: invoice.userId,
      kind: "invoice_refunded",
      params: {
        number: invoice.number,
        creditNote: creditNote.number,
        amountCents: invoice.totalCents,
      },
      link: documentPath(creditNote.number),
    }),
    // No other message tells of a refund: the credit note goes by itself (docs/mail.md#documents-and-top-ups).
    mail: ({ invoice, creditNote }) => ({
      kind: "documentIssued",
      userId: invoice.userId,
      // Its three facts only: the outbox keeps what it is given.
      document: {
        kind: creditNote.kind,
        number: creditNote.number,
        totalCents: creditNote.totalCents,
      },
    }),
  },
};
