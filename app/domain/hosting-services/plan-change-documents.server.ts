import type { Tx } from "~/db/transaction";
import {
  creditedSoFar,
  DOCUMENT_COLUMNS,
  toDocument,
  type DocumentRow,
} from "~/domain/invoices/documents.server";
import { negatedAmounts, renewalTermOf, type DocumentLine } from "~/domain/invoices/invoices";
import {
  issueDocument,
  type InvoiceTerms,
  type IssuedDocument,
} from "~/domain/invoices/issuing.server";
import type { PlanChangeQuote } from "./plan-change";

// The documents of a change of plan (docs/self-service.md, docs/invoices.md): an upgrade's invoice, a
// downgrade's credit note, which credits part of the invoice that paid the running term.

/** The line of a change: the server, the plans, the cycle and the period, at the prorated price. */
function planChangeLine(
  quote: PlanChangeQuote,
  input: { serviceId: number; planChangeId: number },
  sign: 1 | -1,
): DocumentLine {
  const cents = quote.priceCents === 0 ? 0 : sign * quote.priceCents;
  return {
    kind: "planChange",
    params: {
      id: input.serviceId,
      server: quote.serverName,
      fromPlan: quote.from.name,
      toPlan: quote.to.name,
      cycle: quote.billingCycle,
      from: quote.fromAt,
      until: quote.expiresAt,
      planChange: input.planChangeId,
    },
    quantity: 1,
    unitCents: cents,
    totalCents: cents,
  };
}

/**
 * Step: an upgrade's invoice, in the change's transaction after its coins are debited (`ledgerEntryId`,
 * none for a change of 0). Numbered at once: a change is no hot path, and its mail names the number.
 */
export function issuePlanChangeInvoice(
  trx: Tx,
  terms: InvoiceTerms,
  input: {
    userId: string;
    serviceId: number;
    planChangeId: number;
    quote: PlanChangeQuote;
    ledgerEntryId: number | null;
    now: Date;
  },
): Promise<IssuedDocument> {
  return issueDocument(trx, {
    kind: "invoice",
    userId: input.userId,
    amounts: input.quote.amounts,
    seller: terms.seller,
    buyer: terms.buyer,
    lines: [planChangeLine(input.quote, input, 1)],
    timeZone: terms.timeZone,
    hostingServiceId: input.serviceId,
    ledgerEntryId: input.ledgerEntryId,
    actorId: input.userId,
    now: input.now,
  });
}

/**
 * The invoice that paid the service's running term: the renewal's whose term ends at its expiry, else
 * the order's that made it (its first term); only a paid one (a refunded term has nothing left to
 * credit). Undefined for a service set up by hand or bought before invoices.
 */
async function invoiceOfTerm(
  trx: Tx,
  service: { id: number; expiresAt: string },
): Promise<DocumentRow | undefined> {
  const renewals = await trx
    .selectFrom("invoices")
    .select(DOCUMENT_COLUMNS)
    .where("invoices.hosting_service_id", "=", service.id)
    .where("invoices.kind", "=", "invoice")
    .where("invoices.order_id", "is", null)
    .orderBy("invoices.id", "desc")
    .limit(50)
    .execute();
  const renewal = renewals.find((row) => {
    const term = renewalTermOf(toDocument(row, { creditsNumber: null, creditedBy: null }));
    return term !== null && Date.parse(term.until) === Date.parse(service.expiresAt);
  });
  const row =
    renewal ??
    (await trx
      .selectFrom("orders")
      .innerJoin("invoices", "invoices.order_id", "orders.id")
      .select(DOCUMENT_COLUMNS)
      .where("orders.hosting_service_id", "=", service.id)
      .where("invoices.kind", "=", "invoice")
      .orderBy("invoices.id")
      .executeTakeFirst());
  return row?.state === "paid" ? row : undefined;
}

/**
 * Step: a downgrade's credit note, in the change's transaction after its coins are credited
 * (`ledgerEntryId`). It credits part of the invoice that paid the running term (`credits_invoice_id`;
 * that invoice stays paid) when what that invoice has left covers it, with that invoice's parties; a
 * service without one gets a credit note of its own, with the customer's parties now.
 */
export async function issuePlanChangeCreditNote(
  trx: Tx,
  terms: InvoiceTerms,
  input: {
    userId: string;
    service: { id: number; expiresAt: string };
    planChangeId: number;
    quote: PlanChangeQuote;
    ledgerEntryId: number | null;
    now: Date;
  },
): Promise<IssuedDocument> {
  const paid = await invoiceOfTerm(trx, input.service);
  const credited =
    paid &&
    paid.total_cents - (await creditedSoFar(trx, Number(paid.id))) >= input.quote.amountCents
      ? toDocument(paid, { creditsNumber: null, creditedBy: null })
      : undefined;
  return issueDocument(trx, {
    kind: "credit_note",
    userId: input.userId,
    amounts: negatedAmounts(input.quote.amounts),
    seller: credited?.seller ?? terms.seller,
    buyer: credited?.buyer ?? terms.buyer,
    lines: [
      planChangeLine(
        input.quote,
        { serviceId: input.service.id, planChangeId: input.planChangeId },
        -1,
      ),
    ],
    timeZone: terms.timeZone,
    hostingServiceId: input.service.id,
    creditsInvoiceId: credited?.id ?? null,
    ledgerEntryId: input.ledgerEntryId,
    refundMethod: "coins",
    actorId: input.userId,
    now: input.now,
  });
}
