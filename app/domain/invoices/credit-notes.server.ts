import { inTransaction, refuse, type Db, type Tx } from "~/db/transaction";
import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { record } from "~/domain/events/events.server";
import {
  stopAutoRenewForRefund,
  takeBackRenewalTerm,
} from "~/domain/hosting-services/renewal-refund.server";
import { getSettings } from "~/domain/settings/settings.server";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import {
  amountsOf,
  creditedSoFar,
  DOCUMENT_COLUMNS,
  toDocument,
  type DocumentRow,
} from "./documents.server";
import {
  negatedAmounts,
  negatedLines,
  renewalTermOf,
  vatIncluded,
  type DocumentLine,
  type InvoiceDocument,
  type RefundMethod,
  type TermTakenBack,
} from "./invoices";
import { issueDocument, type IssuedDocument } from "./issuing.server";

// Credit notes (docs/invoices.md): an invoice credited once, with the coins its rejection or its refund
// gave back; the refund an admin records.

export type CreditResult =
  | {
      ok: true;
      creditNote: IssuedDocument;
      invoice: InvoiceDocument;
      /** A renewal's term taken back: the service, the expiry it runs to now, and what else changed. */
      termTakenBack?: TermTakenBack;
      /** Its term kept, the service's automatic renewal was switched off as asked. */
      autoRenewStopped?: true;
    }
  /** The renewal's term cannot be taken back: a later renewal or an edit moved the expiry, or the service is gone or terminated. */
  | { ok: false; kind: "conflict"; error: "invoices.errors.termChanged" }
  | { ok: false; kind: "notFound"; error: "invoices.errors.notFound" }
  /** Only a paid invoice is credited, once. */
  | { ok: false; kind: "conflict"; error: "invoices.errors.notRefundable" }
  /** The order still waits for a decision: rejecting it refunds it (and credits its invoice). */
  | { ok: false; kind: "conflict"; error: "invoices.errors.orderPending" }
  /** The coins returned would take the balance past MAX_BALANCE_CENTS. */
  | { ok: false; kind: "conflict"; error: "coins.errors.balanceTooHigh" }
  /** The actor is no member of the staff whose role refunds (`invoices.refund`). */
  | StaffForbidden;

/**
 * Step, first of a refund's or a rejection's writes: the paid invoice marked credited, conditional on its
 * state, so that it happens once even when two admins refund at once. The second waits on this row (on
 * PostgreSQL) and is refused as already refunded, before it moves coins or touches the service: taking
 * a renewal's term back first would have refused it for a term "changed", by the winner's own refund.
 */
async function claimForCredit(trx: Tx, row: DocumentRow): Promise<void> {
  const marked = await trx
    .updateTable("invoices")
    .set({ state: "credited" })
    .where("id", "=", row.id)
    .where("state", "=", "paid")
    .where("kind", "=", "invoice")
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) !== 1)
    refuse<CreditResult>("conflict", "invoices.errors.notRefundable");
}

/** What a credit note records besides its figures: why, how the money went back, who, when. */
interface CreditInput {
  reason: string;
  refundMethod: RefundMethod;
  /** The coins returned, if they were. */
  ledgerEntryId: number | null;
  actorId: string | null;
  timeZone: string;
  now?: Date;
}

/**
 * Step, after claimForCredit: the credit note that closes a paid invoice, with the same seller and
 * buyer, of `cents`. The whole invoice (its lines and figures negated) when nothing of it was credited
 * before; otherwise what is left of it, as a part (`partOfInvoice`).
 */
async function creditWhatIsLeft(
  trx: Tx,
  row: DocumentRow,
  input: CreditInput & { cents: number },
): Promise<IssuedDocument> {
  const original = toDocument(row, { creditsNumber: null, creditedBy: null });
  const figures =
    input.cents === row.total_cents
      ? { amounts: negatedAmounts(amountsOf(row)), lines: negatedLines(original.lines) }
      : partOfInvoice(original, input.cents);
  return issueDocument(trx, {
    kind: "credit_note",
    userId: row.user_id,
    ...figures,
    seller: original.seller,
    buyer: original.buyer,
    timeZone: input.timeZone,
    orderId: original.orderId,
    hostingServiceId: original.hostingServiceId,
    creditsInvoiceId: original.id,
    ledgerEntryId: input.ledgerEntryId,
    reason: input.reason,
    refundMethod: input.refundMethod,
    actorId: input.actorId,
    now: input.now,
  });
}

/**
 * Step: `cents` of an invoice given back to its customer's balance through the ledger (an order's
 * refund naming the invoice), the entry's id; nothing for 0. Refused when the balance would pass
 * MAX_BALANCE_CENTS.
 */
async function returnCoins(
  trx: Tx,
  row: DocumentRow,
  cents: number,
  actorId: string | null,
): Promise<number | null> {
  if (cents <= 0) return null;
  const posted = await writeLedgerEntry(trx, {
    userId: row.user_id,
    amountCents: cents,
    kind: "order_refund",
    reason: ledgerReason("invoiceRefund", { number: row.number }),
    actorId,
    orderId: row.order_id,
    hostingServiceId: row.hosting_service_id,
  });
  if (!posted) refuse<CreditResult>("conflict", "coins.errors.balanceTooHigh");
  return posted.entryId;
}

/**
 * A credit note of part of an invoice (`cents` of its total, VAT inside at its rate): one line, the
 * invoice's first (its plan or term) for that part, negated.
 */
function partOfInvoice(original: InvoiceDocument, cents: number) {
  const vatCents = vatIncluded(cents, original.vatRateBp);
  const amounts = {
    pricesIncludeVat: original.pricesIncludeVat,
    vatRateBp: original.vatRateBp,
    subtotalCents: cents - vatCents,
    vatCents,
    totalCents: cents,
  };
  const lineCents = amounts.pricesIncludeVat ? cents : amounts.subtotalCents;
  const [first] = original.lines;
  const lines: DocumentLine[] = first
    ? [{ ...first, quantity: 1, unitCents: lineCents, totalCents: lineCents }]
    : [];
  return { amounts: negatedAmounts(amounts), lines: negatedLines(lines) };
}

/**
 * Step, for a service's refund (refund-decision.server.ts): what is left of a paid invoice, `cents`
 * (its total less `creditedSoFar`), given back as coins with a credit note of that much, and the
 * invoice marked credited. Claimed first, as a refund is: once, whoever races.
 */
export async function refundInvoiceRemainder(
  trx: Tx,
  row: DocumentRow,
  input: {
    cents: number;
    reason: string;
    actorId: string | null;
    timeZone: string;
    now?: Date;
  },
): Promise<IssuedDocument> {
  await claimForCredit(trx, row);
  const ledgerEntryId = await returnCoins(trx, row, input.cents, input.actorId);
  return creditWhatIsLeft(trx, row, { ...input, refundMethod: "coins", ledgerEntryId });
}

/**
 * Step, in rejectOrder's transaction: the order's invoice, if it has one (orders placed before invoices
 * existed have none), is credited with the coins the rejection returned (`ledgerEntryId`).
 */
export async function creditOrderInvoice(
  trx: Tx,
  input: {
    orderId: number;
    reason: string;
    ledgerEntryId: number | null;
    actorId: string | null;
    now?: Date;
  },
): Promise<IssuedDocument | null> {
  const row = await trx
    .selectFrom("invoices")
    .select(DOCUMENT_COLUMNS)
    .where("order_id", "=", input.orderId)
    .where("kind", "=", "invoice")
    .where("state", "=", "paid")
    .executeTakeFirst();
  if (!row) return null;
  await claimForCredit(trx, row);
  const { general } = await getSettings(trx);
  // A pending order's invoice has had nothing credited: its whole.
  return creditWhatIsLeft(trx, row, {
    ...input,
    cents: row.total_cents,
    refundMethod: "coins",
    timeZone: general.timeZone,
  });
}

/**
 * An admin records a refund of an invoice (the 14-day guarantee of the service terms): the coins back
 * on the customer's balance through the ledger, or the money sent back outside the site (nothing moves
 * here). Either way a credit note of what is left of the invoice (the whole, unless a downgrade gave
 * part of it back) and the invoice credited, recorded as
 * `invoice.refunded` (its audit entry, the customer's notice and the credit note's mail), in one
 * transaction. An invoice is refunded once; an order still pending is rejected instead (which refunds it).
 * The actor is a member of the staff whose role holds `invoices.refund`, checked in that transaction.
 */
export async function recordRefund(
  db: Db,
  input: {
    number: string;
    method: RefundMethod;
    reason: string;
    actorId: string;
    /** A renewal's invoice: also take back the term it paid for (takeBackRenewalTerm). */
    takeBackTerm?: boolean;
    /** With the term: also switch the service's automatic renewal off. */
    stopAutoRenew?: boolean;
    now?: Date;
  },
): Promise<CreditResult> {
  return inTransaction(db, async (trx): Promise<CreditResult> => {
    await requireStaffPermission(trx, input.actorId, "invoices.refund");
    const row = await trx
      .selectFrom("invoices")
      .select(DOCUMENT_COLUMNS)
      .where("number", "=", input.number)
      .executeTakeFirst();
    if (!row) refuse<CreditResult>("notFound", "invoices.errors.notFound");
    if (row.kind !== "invoice" || row.state !== "paid")
      refuse<CreditResult>("conflict", "invoices.errors.notRefundable");
    if (row.order_id !== null) {
      const order = await trx
        .selectFrom("orders")
        .select("status")
        .where("id", "=", Number(row.order_id))
        .executeTakeFirst();
      if (order?.status === "pending")
        refuse<CreditResult>("conflict", "invoices.errors.orderPending");
    }
    await claimForCredit(trx, row);
    // A downgrade may have given part of it back already: the refund gives back the rest.
    const cents = row.total_cents - (await creditedSoFar(trx, Number(row.id)));
    const ledgerEntryId =
      input.method === "coins" ? await returnCoins(trx, row, cents, input.actorId) : null;
    const term = renewalTermOf(toDocument(row, { creditsNumber: null, creditedBy: null }));
    const takenBack =
      term && input.takeBackTerm
        ? await takeBackRenewalTerm(trx, {
            term,
            userId: row.user_id,
            actorId: input.actorId,
            stopAutoRenew: input.stopAutoRenew === true,
            invoiceNumber: row.number,
            reason: input.reason,
            now: input.now,
          })
        : undefined;
    if (takenBack === null) refuse<CreditResult>("conflict", "invoices.errors.termChanged");
    // Kept its term, its automatic renewal may still be switched off (the form's second box).
    const autoRenewStopped =
      term && !input.takeBackTerm && input.stopAutoRenew
        ? await stopAutoRenewForRefund(trx, {
            term,
            userId: row.user_id,
            actorId: input.actorId,
            invoiceNumber: row.number,
            reason: input.reason,
            now: input.now,
          })
        : false;
    const { general } = await getSettings(trx);
    const creditNote = await creditWhatIsLeft(trx, row, {
      cents,
      reason: input.reason,
      refundMethod: input.method,
      ledgerEntryId,
      actorId: input.actorId,
      timeZone: general.timeZone,
      now: input.now,
    });
    await record(
      trx,
      {
        type: "invoice.refunded",
        actorId: input.actorId,
        invoice: { number: row.number, userId: row.user_id, totalCents: row.total_cents },
        creditNote: {
          kind: creditNote.kind,
          number: creditNote.number,
          totalCents: creditNote.totalCents,
        },
        method: input.method,
        reason: input.reason,
      },
      input.now,
    );
    return {
      ok: true,
      creditNote,
      invoice: toDocument(
        { ...row, state: "credited" },
        { creditsNumber: null, creditedBy: creditNote.number },
      ),
      ...(term && takenBack ? { termTakenBack: { service: term.service, ...takenBack } } : {}),
      ...(autoRenewStopped ? { autoRenewStopped: true as const } : {}),
    };
  });
}
