import type { Selectable } from "kysely";
import { withOwner } from "~/db/customer-rows";
import { containsAny } from "~/db/like-pattern";
import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import type { InvoicesTable } from "~/db/schema";
import type { Db, Tx } from "~/db/transaction";
import { LIST_PAGE_SIZE } from "~/domain/customer-dashboard/customer-dashboard";
import {
  expiryBeforeRenewal,
  findRenewalOfTerm,
} from "~/domain/hosting-services/renewal-refund.server";
import { dueAtNextRun } from "~/domain/lifecycle/lifecycle";
import {
  canTakeBackTerm,
  PARTIAL_CREDIT_LINES,
  renewalTermOf,
  stopsAutoRenewByDefault,
  suspensionToRestore,
  type DocumentAmounts,
  type DocumentBuyer,
  type DocumentKind,
  type DocumentLine,
  type DocumentSeller,
  type DocumentState,
  type DocumentSummary,
  type InvoiceDocument,
  type RefundMethod,
} from "./invoices";
import type { AdminInvoicesQuery } from "./invoices.schemas";

// The documents as they are read (docs/invoices.md): a row made a document, the page of one (with what
// a refund of it would do), the customer's list and the admins'.

/** The columns a document is read from (`toDocument`). */
export const DOCUMENT_COLUMNS = [
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

export type DocumentRow = Pick<
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

export function amountsOf(row: DocumentRow): DocumentAmounts {
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

/**
 * A document's row made a document (its parties and lines parsed), with the numbers of the document it
 * credits or that credits it.
 */
export function toDocument(
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
/**
 * What credit notes of an invoice gave back so far, in cents (positive). A paid invoice has some only
 * from a downgrade of plan, which credits part of the invoice paying the term and leaves it paid
 * (docs/self-service.md): a refund of it gives back its total less this.
 */
export async function creditedSoFar(trx: Db | Tx, invoiceId: number): Promise<number> {
  const row = await trx
    .selectFrom("invoices")
    .select((eb) => eb.fn.sum<number>("total_cents").as("n"))
    .where("credits_invoice_id", "=", invoiceId)
    .where("kind", "=", "credit_note")
    .executeTakeFirst();
  return -Number(row?.n ?? 0);
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
    // The credit note that closed the document: a downgrade's part of it leaves it paid.
    .leftJoin("invoices as credit", (join) =>
      join
        .onRef("credit.credits_invoice_id", "=", "invoices.id")
        .on((eb) =>
          eb.or([
            eb("credit.lines", "not like", PARTIAL_CREDIT_LINES),
            eb("invoices.lines", "like", PARTIAL_CREDIT_LINES),
          ]),
        ),
    )
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
  // A downgrade's part of it, given back already: its refund gives back the rest.
  const credited = await creditedSoFar(db, document.id);
  return withServiceEffects(
    db,
    credited > 0 ? { ...document, creditedSoFarCents: credited } : document,
    now,
  );
}

/** For an admin, on a paid invoice: what its refund may do to the service it paid for. */
async function withServiceEffects(
  db: Db,
  document: InvoiceDocument,
  now: Date,
): Promise<InvoiceDocument> {
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
