import type { Db } from "~/db/transaction";
import type { DocumentKind } from "~/domain/invoices/invoices";
import { repliesOfSummary, ticketsOfSummary } from "~/domain/tickets/staff-ticket-notices.server";
import type { StaffTicketSummary } from "~/domain/tickets/tickets";
import type { MailKind } from "./mail";
import type { DocumentRef, DocumentSource } from "./mail-events";

// What a message's values are completed with when it is written (by the send job, or for /admin/mail),
// read from the database once its event committed: the document it names (an invoice is numbered last
// in its transaction, ADR 37), and a staff summary's tickets (docs/support.md: its row holds the
// window, whose tickets are read once the window has ended, so one message names every ticket of it
// that was not told at once; a summary of customers' replies likewise).

function isDocumentSource(value: unknown): value is DocumentSource {
  if (!value || typeof value !== "object") return false;
  const source = value as Record<string, unknown>;
  return (
    typeof source.orderId === "number" ||
    (typeof source.serviceId === "number" &&
      (typeof source.until === "string" || typeof source.from === "string"))
  );
}

/**
 * The invoice an event's message names by where it is found (`DocumentSource`), read when the message
 * is written, after the event committed: the order's, or the renewal's paid by its ledger row (a free
 * one's: the newest whose line runs until `until`, or renews from `from` in an older message; two may
 * when a refund took the first one's term back).
 */
async function findDocumentOf(db: Db, source: DocumentSource): Promise<DocumentRef | undefined> {
  const invoices = db
    .selectFrom("invoices")
    .select(["kind", "number", "total_cents", "lines"])
    .where("kind", "=", "invoice");
  const rows =
    "orderId" in source
      ? await invoices.where("order_id", "=", source.orderId).orderBy("id").limit(1).execute()
      : typeof source.ledgerEntryId === "number"
        ? await invoices
            .where("hosting_service_id", "=", source.serviceId)
            .where("ledger_entry_id", "=", source.ledgerEntryId)
            // Newest first: the invoice was issued moments before its message is written.
            .orderBy("id", "desc")
            .limit(1)
            .execute()
        : (
            await invoices
              .where("hosting_service_id", "=", source.serviceId)
              .where("order_id", "is", null)
              .orderBy("id", "desc")
              .limit(50)
              .execute()
          ).filter((row) => {
            const [line] = parseJsonArray(row.lines) as {
              params?: { from?: unknown; until?: unknown };
            }[];
            const [field, moment] =
              source.until !== undefined
                ? (["until", source.until] as const)
                : (["from", source.from] as const);
            const value = line?.params?.[field];
            return typeof value === "string" && Date.parse(value) === Date.parse(moment ?? "");
          });
  const row = rows[0];
  return row
    ? { kind: row.kind as DocumentKind, number: row.number, totalCents: row.total_cents }
    : undefined;
}

function parseJsonArray(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** A message's values, with the document it names by its source found (once, when it is written). */
async function withFoundDocument(
  db: Db,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (params.document || !isDocumentSource(params.documentOf)) return params;
  const document = await findDocumentOf(db, params.documentOf);
  return document ? { ...params, document } : params;
}

/**
 * A message's values as its template is given them, read when it is written: the document it names,
 * a summary's tickets.
 */
export async function paramsToWrite(
  db: Db,
  kind: MailKind,
  text: string,
): Promise<Record<string, unknown>> {
  const params = await withFoundDocument(db, parseParams(text));
  if (kind === "staffTicketsOpened") return withSummaryTickets(db, params, ticketsOfSummary);
  if (kind === "staffTicketReplies") return withSummaryTickets(db, params, repliesOfSummary);
  return params;
}

/** A row's stored values (JSON), or none when they cannot be read. */
export function parseParams(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function summaryOf(params: Record<string, unknown>): StaffTicketSummary | null {
  const { from, until, skipFirst } = params;
  if (typeof from !== "string" || typeof until !== "string") return null;
  return { from, until, skipFirst: skipFirst === true };
}

/**
 * A summary's values with what it tells, read by `read`: the new tickets (how many, the first few by
 * number and department) or the customers' replies (how many, the first few tickets they went to).
 */
async function withSummaryTickets(
  db: Db,
  params: Record<string, unknown>,
  read: (db: Db, summary: StaffTicketSummary) => Promise<object>,
): Promise<Record<string, unknown>> {
  const summary = summaryOf(params);
  if (!summary) return params;
  return { ...params, ...(await read(db, summary)) };
}
