import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { isPostgres } from "~/db/dialect";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import { withoutDirectionalControls } from "~/lib/bidi";
import type { Db, Tx } from "~/db/transaction";
import {
  documentAmounts,
  documentNumber,
  DOCUMENT_SERIES,
  receiptAmounts,
  customerVat,
  vatRateFor,
  yearIn,
  type DocumentAmounts,
  type DocumentBuyer,
  type DocumentKind,
  type DocumentLine,
  type DocumentSeller,
  type RefundMethod,
  type TopUpPaid,
} from "./invoices";

// Numbered documents (docs/invoices.md): what a customer's next document is made of (the terms), and the
// steps that issue a document inside the transaction that moves its money (ADR 36, 37). Crediting one is
// credit-notes.server.ts's, reading them documents.server.ts's, checking them against the ledger
// reconciliation.server.ts's.

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
  if (paid.provider) params.provider = paid.provider;
  if (paid.providerRef) params.providerRef = withoutDirectionalControls(paid.providerRef).trim();
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
