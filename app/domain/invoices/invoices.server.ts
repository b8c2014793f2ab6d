import { randomUUID } from "node:crypto";
import { sql, type Selectable } from "kysely";
import { withOwner } from "~/db/customer-rows";
import { isPostgres } from "~/db/dialect";
import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { record } from "~/domain/events/events.server";
import {
  expiryBeforeRenewal,
  findRenewalOfTerm,
  stopAutoRenewForRefund,
  takeBackRenewalTerm,
} from "~/domain/hosting-services/renewal-refund.server";
import { dueAtNextRun } from "~/domain/lifecycle/lifecycle";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import { containsAny } from "~/db/like-pattern";
import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import type { InvoicesTable } from "~/db/schema";
import { withoutDirectionalControls } from "~/lib/bidi";
import { inTransaction, refuse, type Db, type Tx } from "~/db/transaction";
import { LIST_PAGE_SIZE } from "~/domain/customer-dashboard/customer-dashboard";
import {
  canTakeBackTerm,
  suspensionToRestore,
  type TermTakenBack,
  documentAmounts,
  documentNumber,
  DOCUMENT_NUMBER_PATTERN,
  DOCUMENT_SERIES,
  negatedAmounts,
  negatedLines,
  receiptAmounts,
  renewalTermOf,
  stopsAutoRenewByDefault,
  customerVat,
  vatRateFor,
  yearIn,
  type DocumentAmounts,
  type DocumentBuyer,
  type DocumentKind,
  type DocumentLine,
  type DocumentSeller,
  type DocumentState,
  type DocumentSummary,
  type InvoiceDocument,
  type RefundMethod,
  type TopUpPaid,
} from "./invoices";
import type { AdminInvoicesQuery } from "./invoices.schemas";

// Numbered documents (docs/invoices.md): the steps that issue them inside the transaction that moves the
// money (ADR 36, 37), the refund an admin records, and the lists and the page that read them.

/** What an issuing transaction needs of the settings: the seller, the VAT, the site's time zone. */
export type InvoicingContext = Pick<Settings, "invoicing" | "general">;

/**
 * A party's texts as a document keeps them for good: without directional controls (an account's name
 * typed with them, or details saved before they were refused), which would reorder the PDF's lines.
 */
function plainParty<T extends Record<string, string>>(party: T): T {
  const plain: Record<string, string> = {};
  for (const [field, value] of Object.entries(party))
    plain[field] = withoutDirectionalControls(value);
  return plain as T;
}

/** The seller's details as a new document copies them. */
function sellerOf(settings: InvoicingContext): DocumentSeller {
  const { sellerName, sellerAddress, sellerTaxId } = settings.invoicing;
  return plainParty({ name: sellerName, address: sellerAddress, taxId: sellerTaxId });
}

/**
 * What a customer's next invoice is made of, read once before the money moves: the buyer as the
 * account's billing details give them (the account's name without a billing name), the VAT rate of
 * their billing country, and whether prices include it. The order and the renewal charge
 * `amountsFor(price).totalCents`.
 */
export interface InvoiceTerms {
  seller: DocumentSeller;
  buyer: DocumentBuyer;
  vatRateBp: number;
  pricesIncludeVat: boolean;
  timeZone: string;
  /**
   * The customer's language (their saved one, else the site's default): an order's invoice names the
   * plan in it as it is issued, and keeps that name (a document is frozen).
   */
  buyerLocale: string;
}

/** Step: the terms of `userId`'s next invoice (one read of the account). */
export async function invoiceTermsFor(
  trx: Tx,
  userId: string,
  settings: InvoicingContext,
): Promise<InvoiceTerms> {
  const user = await trx
    .selectFrom("users")
    .select(["name", "email", "billing_name", "billing_address", "billing_country", "locale"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return {
    seller: sellerOf(settings),
    buyer: plainParty({
      name: user.billing_name || user.name,
      email: user.email,
      address: user.billing_address ?? "",
      country: user.billing_country ?? "",
    }),
    vatRateBp: vatRateFor(settings.invoicing, user.billing_country),
    pricesIncludeVat: settings.invoicing.pricesIncludeVat,
    timeZone: settings.general.timeZone,
    buyerLocale: user.locale ?? settings.general.defaultLocale,
  };
}

/**
 * The VAT a customer's next invoice adds on top of prices that exclude it, as the order form shows it
 * (the rate of their billing country, `vatRateFor`, as `invoiceTermsFor` reads it); nothing for a visitor,
 * whose country is not known.
 */
export async function orderVatFor(
  db: Db,
  userId: string | null,
  invoicing: InvoicingContext["invoicing"],
): Promise<{ rateBp: number; pricesIncludeVat: boolean }> {
  const user = userId
    ? await db
        .selectFrom("users")
        .select("billing_country")
        .where("id", "=", userId)
        .executeTakeFirst()
    : undefined;
  return customerVat(invoicing, user ? user.billing_country : null);
}

/** The figures of a price (what the lines add up to) under `terms`: `totalCents` is what is charged. */
export function amountsFor(terms: InvoiceTerms, priceCents: number): DocumentAmounts {
  return documentAmounts(priceCents, terms.vatRateBp, terms.pricesIncludeVat);
}

export interface IssueDocumentInput {
  kind: DocumentKind;
  userId: string;
  amounts: DocumentAmounts;
  seller: DocumentSeller;
  buyer: DocumentBuyer;
  lines: DocumentLine[];
  /** The site's time zone: the number counts in its year. */
  timeZone: string;
  orderId?: number | null;
  hostingServiceId?: number | null;
  /** A credit note: the document it corrects. */
  creditsInvoiceId?: number | null;
  /** The coin ledger row the document accounts for (none for money that never touched the balance). */
  ledgerEntryId?: number | null;
  reason?: string | null;
  refundMethod?: RefundMethod | null;
  actorId?: string | null;
  now?: Date;
}

/** A document just issued: what a message names it by (mail.server.ts's DocumentRef) and its id. */
export interface IssuedDocument {
  id: number;
  number: string;
  kind: DocumentKind;
  totalCents: number;
}

/**
 * Step: the next number of `series` in `year`, taken in the caller's transaction (ADR 37). One upsert:
 * the year's first document creates the counter, every later one increments it; the counter row stays
 * locked until the transaction ends, and a rollback gives the number back.
 */
async function takeNumber(trx: Tx, series: string, year: number): Promise<number> {
  const row = await trx
    .insertInto("document_counters")
    .values({ series, year, next_number: 2 })
    .onConflict((oc) =>
      oc
        .columns(["series", "year"])
        .doUpdateSet({ next_number: sql<number>`document_counters.next_number + 1` }),
    )
    .returning(sql<number>`next_number - 1`.as("number"))
    .executeTakeFirstOrThrow();
  return Number(row.number);
}

/**
 * Step: issues a numbered document in the caller's transaction, the one that moves its money: its
 * number (no gap, no reuse: ADR 37), then the document itself, written once. Two statements.
 */
export async function issueDocument(trx: Tx, input: IssueDocumentInput): Promise<IssuedDocument> {
  const now = input.now ?? new Date();
  const series = DOCUMENT_SERIES[input.kind];
  const year = yearIn(input.timeZone, now);
  const number = documentNumber(series, year, await takeNumber(trx, series, year));
  return {
    id: await insertDocument(trx, input, number, now),
    number,
    kind: input.kind,
    totalCents: input.amounts.totalCents,
  };
}

/** A document whose number is taken as its transaction commits: not known inside that transaction. */
export interface PendingDocument {
  id: number;
}

/** The number a document numbered at commit holds until its transaction commits (PostgreSQL). */
export const PENDING_NUMBER_PREFIX = "pending:";

/**
 * Step, for the hot paths (an order's invoice, a renewal's): issues a document as `issueDocument` does,
 * but on PostgreSQL its number is taken while the transaction commits, by a deferred trigger
 * (migration 0037, ADR 37), so the series' counter row is locked for the commit alone rather than from
 * the number to the commit: orders no longer commit one at a time behind it. The number is gapless all
 * the same, and nobody sees the placeholder (it is never committed). On SQLite, whose writers take
 * turns anyway, the number is taken at once. One statement on PostgreSQL, two on SQLite.
 */
export async function issueDocumentNumberedAtCommit(
  trx: Tx,
  input: IssueDocumentInput,
): Promise<PendingDocument> {
  if (!isPostgres(trx)) return { id: (await issueDocument(trx, input)).id };
  const now = input.now ?? new Date();
  const series = DOCUMENT_SERIES[input.kind];
  const year = yearIn(input.timeZone, now);
  const placeholder = `${PENDING_NUMBER_PREFIX}${series}:${year}:${randomUUID()}`;
  return { id: await insertDocument(trx, input, placeholder, now) };
}

async function insertDocument(
  trx: Tx,
  input: IssueDocumentInput,
  number: string,
  now: Date,
): Promise<number> {
  const { amounts } = input;
  const row = await trx
    .insertInto("invoices")
    .values({
      number,
      kind: input.kind,
      user_id: input.userId,
      order_id: input.orderId ?? null,
      hosting_service_id: input.hostingServiceId ?? null,
      credits_invoice_id: input.creditsInvoiceId ?? null,
      ledger_entry_id: input.ledgerEntryId ?? null,
      currency: "EUR",
      prices_include_vat: amounts.pricesIncludeVat ? 1 : 0,
      subtotal_cents: amounts.subtotalCents,
      vat_rate_bp: amounts.vatRateBp,
      vat_cents: amounts.vatCents,
      total_cents: amounts.totalCents,
      seller: JSON.stringify(input.seller),
      buyer: JSON.stringify(input.buyer),
      lines: JSON.stringify(input.lines),
      state: "paid",
      reason: input.reason ?? null,
      refund_method: input.refundMethod ?? null,
      actor_id: input.actorId ?? null,
      issued_at: now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Step: the invoice of an order, issued in placeOrder's transaction after its coins are debited
 * (`amounts.totalCents` is what was charged). One line for the plan and its cycle at the price before
 * the voucher, and one for the voucher's discount.
 */
export async function issueOrderInvoice(
  trx: Tx,
  terms: InvoiceTerms,
  input: {
    userId: string;
    order: {
      id: number;
      productName: string;
      billingCycle: string;
      serverName: string;
      subtotalCents: number;
      discountCents: number;
      voucherCode: string | null;
    };
    amounts: DocumentAmounts;
    ledgerEntryId: number | null;
    now?: Date;
  },
): Promise<PendingDocument> {
  const { order, ...invoice } = input;
  const lines: DocumentLine[] = [
    {
      kind: "order",
      params: {
        id: order.id,
        product: order.productName,
        cycle: order.billingCycle,
        server: order.serverName,
      },
      quantity: 1,
      unitCents: order.subtotalCents,
      totalCents: order.subtotalCents,
    },
  ];
  if (order.discountCents > 0)
    lines.push({
      kind: "discount",
      params: { code: order.voucherCode ?? "" },
      quantity: 1,
      unitCents: -order.discountCents,
      totalCents: -order.discountCents,
    });
  return issueDebitInvoice(trx, terms, {
    ...invoice,
    lines,
    orderId: order.id,
    actorId: input.userId,
  });
}

/** Step: the invoice of a renewal, issued in renewService's transaction after its coins are debited. */
export async function issueRenewalInvoice(
  trx: Tx,
  terms: InvoiceTerms,
  input: {
    userId: string;
    service: { id: number; name: string; billingCycle: string };
    /** The renewal it bills (`service_renewals.id`), named in its line for a refund to find. */
    renewalId: number;
    priceCents: number;
    from: string;
    until: string;
    amounts: DocumentAmounts;
    ledgerEntryId: number | null;
    /** The lifecycle's automatic renewal has no person acting. */
    actorId: string | null;
    now?: Date;
  },
): Promise<PendingDocument> {
  const { service, renewalId, priceCents, from, until, ...invoice } = input;
  return issueDebitInvoice(trx, terms, {
    ...invoice,
    lines: [
      {
        kind: "renewal",
        params: {
          id: service.id,
          service: service.name,
          cycle: service.billingCycle,
          from,
          until,
          renewal: renewalId,
        },
        quantity: 1,
        unitCents: priceCents,
        totalCents: priceCents,
      },
    ],
    hostingServiceId: service.id,
  });
}

/**
 * Step: the invoice of coins debited for an order or a renewal, with the seller, the buyer and the time
 * zone of `terms`, numbered as its transaction commits.
 */
function issueDebitInvoice(
  trx: Tx,
  terms: InvoiceTerms,
  input: Omit<IssueDocumentInput, "kind" | "seller" | "buyer" | "timeZone">,
): Promise<PendingDocument> {
  return issueDocumentNumberedAtCommit(trx, {
    ...input,
    kind: "invoice",
    seller: terms.seller,
    buyer: terms.buyer,
    timeZone: terms.timeZone,
  });
}

/** How a top-up was paid, as its receipt's line keeps it: only what is known (`TopUpPaid`). */
function topUpPaidParams(paid: TopUpPaid | undefined): DocumentLine["params"] {
  if (!paid) return {};
  const params: DocumentLine["params"] = {
    currency: paid.currency,
    sent: paid.sent,
    asked: paid.asked,
  };
  const payer = paid.payer ? withoutDirectionalControls(paid.payer).trim() : "";
  if (payer) params.payer = payer;
  if (paid.paidOn) params.paidOn = paid.paidOn;
  return params;
}

/**
 * Step, for the top-up approval and a ticket's payment: the payment receipt of coins credited
 * to a balance, in the transaction that credits them (series HFR, no VAT: ADR 36). `amountCents` is the
 * coins credited; `ledgerEntryId` the credit's ledger row (`writeLedgerEntry`'s `entryId`); what was
 * paid: a top-up (`reference` and `method`, shown as written, and how the money came: `paid`) or a
 * payment an admin recorded on a ticket (`ticketId`). Reads the seller and the buyer itself.
 */
export async function issuePaymentReceipt(
  trx: Tx,
  input: {
    userId: string;
    amountCents: number;
    ledgerEntryId: number;
    actorId: string | null;
    /** The settings the caller has (the request's cache); read in the transaction when not given. */
    settings?: InvoicingContext;
    now?: Date;
  } & ({ reference: string; method: string; paid?: TopUpPaid } | { ticketId: number }),
): Promise<IssuedDocument> {
  const settings = input.settings ?? (await getSettings(trx));
  const terms = await invoiceTermsFor(trx, input.userId, settings);
  const paid: Pick<DocumentLine, "kind" | "params"> =
    "ticketId" in input
      ? { kind: "ticketPayment", params: { id: input.ticketId } }
      : {
          kind: "topUp",
          params: {
            reference: input.reference,
            method: input.method,
            ...topUpPaidParams(input.paid),
          },
        };
  return issueDocument(trx, {
    kind: "receipt",
    userId: input.userId,
    amounts: receiptAmounts(input.amountCents),
    seller: terms.seller,
    buyer: terms.buyer,
    lines: [{ ...paid, quantity: 1, unitCents: input.amountCents, totalCents: input.amountCents }],
    timeZone: terms.timeZone,
    ledgerEntryId: input.ledgerEntryId,
    actorId: input.actorId,
    now: input.now,
  });
}

const DOCUMENT_COLUMNS = [
  "invoices.id",
  "invoices.number",
  "invoices.kind",
  "invoices.state",
  "invoices.user_id",
  "invoices.order_id",
  "invoices.hosting_service_id",
  "invoices.credits_invoice_id",
  "invoices.ledger_entry_id",
  "invoices.currency",
  "invoices.prices_include_vat",
  "invoices.subtotal_cents",
  "invoices.vat_rate_bp",
  "invoices.vat_cents",
  "invoices.total_cents",
  "invoices.seller",
  "invoices.buyer",
  "invoices.lines",
  "invoices.reason",
  "invoices.refund_method",
  "invoices.issued_at",
] as const;

type DocumentRow = Pick<
  Selectable<InvoicesTable>,
  | "id"
  | "number"
  | "kind"
  | "state"
  | "user_id"
  | "order_id"
  | "hosting_service_id"
  | "credits_invoice_id"
  | "ledger_entry_id"
  | "currency"
  | "prices_include_vat"
  | "subtotal_cents"
  | "vat_rate_bp"
  | "vat_cents"
  | "total_cents"
  | "seller"
  | "buyer"
  | "lines"
  | "reason"
  | "refund_method"
  | "issued_at"
>;

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function amountsOf(row: DocumentRow): DocumentAmounts {
  return {
    pricesIncludeVat: Number(row.prices_include_vat) === 1,
    vatRateBp: row.vat_rate_bp,
    subtotalCents: row.subtotal_cents,
    vatCents: row.vat_cents,
    totalCents: row.total_cents,
  };
}

/** What every view of a document starts with: which document it is, and its state. */
function documentHeading(row: { id: number; number: string; kind: string; state: string }) {
  return {
    id: Number(row.id),
    number: row.number,
    kind: row.kind as DocumentKind,
    state: row.state as DocumentState,
  };
}

/** A nullable link to another row, made a number as every id read here is. */
function idOrNull(id: number | null): number | null {
  return id === null ? null : Number(id);
}

function toDocument(
  row: DocumentRow,
  links: { creditsNumber: string | null; creditedBy: string | null },
): InvoiceDocument {
  return {
    ...documentHeading(row),
    userId: row.user_id,
    orderId: idOrNull(row.order_id),
    hostingServiceId: idOrNull(row.hosting_service_id),
    currency: row.currency,
    ...amountsOf(row),
    seller: parseJson<DocumentSeller>(row.seller, { name: "", address: "", taxId: "" }),
    buyer: parseJson<DocumentBuyer>(row.buyer, { name: "", email: "", address: "", country: "" }),
    lines: parseJson<DocumentLine[]>(row.lines, []),
    reason: row.reason,
    refundMethod: row.refund_method as RefundMethod | null,
    issuedAt: row.issued_at,
    ...links,
  };
}

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
  | { ok: false; kind: "conflict"; error: "coins.errors.balanceTooHigh" };

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

/**
 * Step, after claimForCredit: a credit note of the whole of a paid invoice (its lines and figures
 * negated, the same seller and buyer). `ledgerEntryId`: the coins returned, if they were.
 */
async function creditInvoice(
  trx: Tx,
  row: DocumentRow,
  input: {
    reason: string;
    refundMethod: RefundMethod;
    ledgerEntryId: number | null;
    actorId: string | null;
    timeZone: string;
    now?: Date;
  },
): Promise<IssuedDocument> {
  const original = toDocument(row, { creditsNumber: null, creditedBy: null });
  return issueDocument(trx, {
    kind: "credit_note",
    userId: row.user_id,
    amounts: negatedAmounts(amountsOf(row)),
    seller: original.seller,
    buyer: original.buyer,
    lines: negatedLines(original.lines),
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
  return creditInvoice(trx, row, {
    ...input,
    refundMethod: "coins",
    timeZone: general.timeZone,
  });
}

/**
 * An admin records a refund of an invoice (the 14-day guarantee of the service terms): the coins back
 * on the customer's balance through the ledger, or the money sent back outside the site (nothing moves
 * here). Either way a credit note of the whole invoice and the invoice credited, recorded as
 * `invoice.refunded` (its audit entry, the customer's notice and the credit note's mail), in one
 * transaction. An invoice is refunded once; an order still pending is rejected instead (which refunds it).
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
    let ledgerEntryId: number | null = null;
    if (input.method === "coins" && row.total_cents > 0) {
      const posted = await writeLedgerEntry(trx, {
        userId: row.user_id,
        amountCents: row.total_cents,
        kind: "order_refund",
        reason: ledgerReason("invoiceRefund", { number: row.number }),
        actorId: input.actorId,
        orderId: row.order_id,
        hostingServiceId: row.hosting_service_id,
      });
      if (!posted) refuse<CreditResult>("conflict", "coins.errors.balanceTooHigh");
      ledgerEntryId = posted.entryId;
    }
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
    const creditNote = await creditInvoice(trx, row, {
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

/**
 * A document as a page shows it, to its owner or an admin; undefined for anyone else (the page answers
 * 404, as for a number that does not exist), with the numbers of the document it credits or that
 * credits it.
 */
export async function getDocument(
  db: Db,
  number: string,
  reader: { userId: string; isAdmin: boolean },
  now = new Date(),
): Promise<InvoiceDocument | undefined> {
  let query = db
    .selectFrom("invoices")
    .leftJoin("invoices as credited", "credited.id", "invoices.credits_invoice_id")
    .leftJoin("invoices as credit", "credit.credits_invoice_id", "invoices.id")
    .select([
      ...DOCUMENT_COLUMNS,
      "credited.number as credits_number",
      "credit.number as credited_by",
    ])
    .where("invoices.number", "=", number);
  if (!reader.isAdmin) query = query.where("invoices.user_id", "=", reader.userId);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const document = toDocument(row, {
    creditsNumber: row.credits_number,
    creditedBy: row.credited_by,
  });
  if (!reader.isAdmin || document.kind !== "invoice" || document.state !== "paid") return document;
  if (document.orderId !== null) {
    const service = await db
      .selectFrom("orders")
      .innerJoin("hosting_services", "hosting_services.id", "orders.hosting_service_id")
      .select(["hosting_services.id", "hosting_services.name", "hosting_services.status"])
      .where("orders.id", "=", document.orderId)
      .executeTakeFirst();
    return {
      ...document,
      orderService: service ? { ...service, id: Number(service.id) } : null,
    };
  }
  const term = renewalTermOf(document);
  if (!term) return document;
  const [service, renewal] = await Promise.all([
    db
      .selectFrom("hosting_services")
      .select(["status", "expires_at", "auto_renew"])
      .where("id", "=", term.serviceId)
      .where("user_id", "=", document.userId)
      .executeTakeFirst(),
    findRenewalOfTerm(db, term),
  ]);
  const found = service && { expiresAt: service.expires_at, status: service.status };
  const effects = {
    automatic: renewal?.automatic ?? false,
    suspendsAgain: suspensionToRestore(renewal, service?.status ?? "", now) !== null,
    renewsAtNextRun: dueAtNextRun(expiryBeforeRenewal(term, renewal), now),
  };
  return {
    ...document,
    renewalRefund: {
      ...term,
      restoresExpiry: expiryBeforeRenewal(term, renewal),
      expiresAt: found ? found.expiresAt : null,
      status: found ? found.status : null,
      canTakeBack: canTakeBackTerm(term, found),
      autoRenew: Number(service?.auto_renew) === 1,
      ...effects,
      stopAutoRenewByDefault: stopsAutoRenewByDefault(effects),
    },
  };
}

const SUMMARY_COLUMNS = [
  "invoices.id",
  "invoices.number",
  "invoices.kind",
  "invoices.state",
  "invoices.total_cents",
  "invoices.vat_cents",
  "invoices.currency",
  "invoices.issued_at",
  "invoices.order_id",
] as const;

function toSummary(row: {
  id: number;
  number: string;
  kind: string;
  state: string;
  total_cents: number;
  vat_cents: number;
  currency: string;
  issued_at: string;
  order_id: number | null;
}): DocumentSummary {
  return {
    ...documentHeading(row),
    totalCents: row.total_cents,
    vatCents: row.vat_cents,
    currency: row.currency,
    issuedAt: row.issued_at,
    orderId: idOrNull(row.order_id),
  };
}

/** A customer's documents, newest first, a page of the dashboard's LIST_PAGE_SIZE at a time. */
export async function listCustomerDocuments(db: Db, userId: string, page: PageRequest) {
  const { rows, hasMore } = await fetchPage(
    db
      .selectFrom("invoices")
      .select(SUMMARY_COLUMNS)
      .where("invoices.user_id", "=", userId)
      .orderBy("invoices.id", "desc"),
    pageWindow(page, LIST_PAGE_SIZE),
  );
  return { documents: rows.map(toSummary), hasMore };
}

/** How many documents a page of /admin/invoices shows. */
export const ADMIN_INVOICES_PAGE_SIZE = 25;

/**
 * Every customer's documents for admins, newest first: by kind, by state, and by a search that matches
 * a number or a customer's email or name.
 */
export async function listDocumentsForAdmin(db: Db, query: AdminInvoicesQuery) {
  let select = withOwner(db, "invoices").select([
    ...SUMMARY_COLUMNS,
    "users.id as user_id",
    "users.name",
    "users.email",
  ]);
  if (query.kind) select = select.where("invoices.kind", "=", query.kind);
  if (query.state) select = select.where("invoices.state", "=", query.state);
  const search = query.q?.trim();
  if (search) {
    select = select.where(
      containsAny(
        ["lower(invoices.number)", "lower(users.email)", "lower(users.name)"],
        search.toLowerCase(),
      ),
    );
  }
  const { rows, hasMore } = await fetchPage(
    select.orderBy("invoices.id", "desc"),
    pageWindow(query, ADMIN_INVOICES_PAGE_SIZE),
  );
  return {
    documents: rows.map((row): DocumentSummary => ({
      ...toSummary(row),
      userId: row.user_id,
      userName: row.name,
      userEmail: row.email,
    })),
    hasMore,
  };
}

export interface InvoiceDiscrepancy {
  number: string;
  problem: string;
}

/**
 * Every document whose money does not match the coin ledger (npm run check:ledger): an invoice's total
 * is exactly the coins its ledger row debited (none for a total of 0), a receipt's the coins credited,
 * a credit note's the coins given back (or none, for money sent back outside the site), each row the
 * document's customer's. A credited invoice has exactly one credit note of its whole total; and every
 * payment of an order or a renewal written since the first invoice has one. The top-ups' credits and
 * receipts agree too (`findTopUpDiscrepancies`). Empty means the books agree.
 */
export async function findInvoiceDiscrepancies(db: Db): Promise<InvoiceDiscrepancy[]> {
  const problems: InvoiceDiscrepancy[] = [];
  const rows = await db
    .selectFrom("invoices")
    .leftJoin("coin_ledger", "coin_ledger.id", "invoices.ledger_entry_id")
    .leftJoin("invoices as credit", "credit.credits_invoice_id", "invoices.id")
    .select([
      "invoices.number",
      "invoices.kind",
      "invoices.state",
      "invoices.user_id",
      "invoices.total_cents",
      "invoices.ledger_entry_id",
      "invoices.refund_method",
      "coin_ledger.user_id as entry_user",
      "coin_ledger.amount_cents as entry_cents",
      "credit.total_cents as credit_total",
    ])
    .execute();
  for (const row of rows) {
    const report = (problem: string) => problems.push({ number: row.number, problem });
    // A number taken at commit replaces its placeholder in the same commit (migration 0037): a
    // placeholder or any other shape in the books is a fault of the numbering.
    if (!DOCUMENT_NUMBER_PATTERN.test(row.number)) report("its number is not a document number");
    // What the ledger row must hold: an invoice debits its total, a receipt and a credit note credit it.
    const expected =
      row.kind === "invoice"
        ? -row.total_cents
        : row.kind === "receipt"
          ? row.total_cents
          : -row.total_cents;
    const noEntryExpected =
      row.total_cents === 0 || (row.kind === "credit_note" && row.refund_method === "outside");
    if (noEntryExpected) {
      if (row.ledger_entry_id !== null) report("has a ledger entry, but moved no coins");
    } else if (row.ledger_entry_id === null || row.entry_cents === null) {
      report("has no ledger entry");
    } else {
      if (row.entry_user !== row.user_id) report("its ledger entry is another customer's");
      if (row.entry_cents !== expected)
        report(`its ledger entry is ${row.entry_cents} cents, expected ${expected}`);
    }
    if (row.kind === "invoice") {
      const credited = row.credit_total !== null;
      if ((row.state === "credited") !== credited)
        report(
          credited ? "has a credit note but is not credited" : "is credited without a credit note",
        );
      if (credited && row.credit_total !== -row.total_cents)
        report(`its credit note is ${row.credit_total} cents, expected ${-row.total_cents}`);
    }
  }
  // Payments since invoicing began (the first invoice's ledger row) that no invoice accounts for.
  const first = await db
    .selectFrom("invoices")
    .select((eb) => eb.fn.min("ledger_entry_id").as("id"))
    .where("kind", "=", "invoice")
    .executeTakeFirst();
  const topUps = await findTopUpDiscrepancies(db);
  if (first?.id === null || first?.id === undefined) return [...problems, ...topUps];
  const unbilled = await db
    .selectFrom("coin_ledger")
    .select(["coin_ledger.id", "coin_ledger.kind"])
    .where("coin_ledger.kind", "in", ["order_payment", "renewal"])
    .where("coin_ledger.id", ">=", Number(first.id))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("invoices")
            .select("invoices.id")
            .whereRef("invoices.ledger_entry_id", "=", "coin_ledger.id"),
        ),
      ),
    )
    .execute();
  for (const entry of unbilled)
    problems.push({ number: `ledger #${entry.id}`, problem: `a ${entry.kind} without an invoice` });
  return [...problems, ...topUps];
}

/** The ledger key of a top-up's one credit (top-ups.server.ts's `topUpLedgerKey`). */
const TOP_UP_KEY = /^top-up:(\d+)$/;

/**
 * Every top-up request whose money does not match the ledger (npm run check:ledger): an
 * approved request has exactly one ledger credit (key `top-up:<id>`) of `credited_coins ?? coins`
 * coins to its customer, and exactly one payment receipt for that credit; a request not approved has
 * no credit; and no credit names a request that does not exist. Each is reported as
 * "top-up #<id> (<reference>)".
 */
export async function findTopUpDiscrepancies(db: Db): Promise<InvoiceDiscrepancy[]> {
  const [requests, credits, receipts] = await Promise.all([
    db
      .selectFrom("top_up_requests")
      .select(["id", "reference", "user_id", "state", "coins", "credited_coins"])
      .execute(),
    db
      .selectFrom("coin_ledger")
      .select(["id", "user_id", "amount_cents", "idempotency_key"])
      .where("idempotency_key", "like", "top-up:%")
      .execute(),
    db
      .selectFrom("invoices")
      .innerJoin("coin_ledger", "coin_ledger.id", "invoices.ledger_entry_id")
      .select(["invoices.ledger_entry_id"])
      .where("invoices.kind", "=", "receipt")
      .where("coin_ledger.idempotency_key", "like", "top-up:%")
      .execute(),
  ]);
  const creditOf = new Map<number, (typeof credits)[number]>();
  const problems: InvoiceDiscrepancy[] = [];
  for (const credit of credits) {
    const id = TOP_UP_KEY.exec(credit.idempotency_key ?? "")?.[1];
    if (id) creditOf.set(Number(id), credit);
  }
  const receiptsOf = new Map<number, number>();
  for (const receipt of receipts) {
    const entry = Number(receipt.ledger_entry_id);
    receiptsOf.set(entry, (receiptsOf.get(entry) ?? 0) + 1);
  }
  const known = new Set<number>();
  for (const request of requests) {
    const id = Number(request.id);
    known.add(id);
    const report = (problem: string) =>
      problems.push({ number: `top-up #${id} (${request.reference})`, problem });
    const credit = creditOf.get(id);
    if (request.state !== "approved") {
      if (credit) report(`is ${request.state} but has a ledger credit (#${credit.id})`);
      continue;
    }
    if (!credit) {
      report("is approved without a ledger credit");
      continue;
    }
    const expected = (request.credited_coins ?? request.coins) * 100;
    if (credit.user_id !== request.user_id) report("its ledger credit is another customer's");
    if (credit.amount_cents !== expected)
      report(`its ledger credit is ${credit.amount_cents} cents, expected ${expected}`);
    const count = receiptsOf.get(Number(credit.id)) ?? 0;
    if (count !== 1)
      report(count === 0 ? "has no payment receipt" : `has ${count} payment receipts, expected 1`);
  }
  for (const [id, credit] of creditOf)
    if (!known.has(id))
      problems.push({
        number: `ledger #${credit.id}`,
        problem: `a credit of top-up #${id}, which does not exist`,
      });
  return problems;
}
