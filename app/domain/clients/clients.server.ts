import { sql } from "kysely";
import { AUDIT_ENTRY_COLUMNS } from "~/domain/audit/audit-log.server";
import { pendingDeletionRequest } from "~/domain/accounts/account-deletion.server";
import { listLedgerPage } from "~/domain/customer-dashboard/customer-dashboard.server";
import {
  activeServicesCount,
  listCustomerServicePage,
} from "~/domain/hosting-services/customer-services.server";
import { record } from "~/domain/events/events.server";
import { listCustomerDocuments } from "~/domain/invoices/documents.server";
import { latestMailOf } from "~/domain/mail/client-mail.server";
import { listCustomerOrders, pendingOrdersCount } from "~/domain/orders/orders.server";
import { latestTopUpsOf } from "~/domain/payments/top-up-lists.server";
import {
  getTicketForAdmin,
  listCustomerTickets,
  openTicketsCount,
} from "~/domain/tickets/tickets.server";
import { inTransaction, refuse, type Db } from "~/db/transaction";
import {
  CLIENT_SECTION_SIZE,
  CLIENT_SUMMARY_SIZE,
  type ClientAuditEntry,
  type ClientCounts,
  type ClientDetail,
  type ClientProfile,
  type ClientSummary,
  type Latest,
} from "./clients";
import { clientIdSchema } from "./clients.schemas";

/** The account's row and its counts over everything it has, in one query; undefined when there is none. */
async function readClient(db: Db, userId: string) {
  if (!clientIdSchema.safeParse(userId).success) return undefined;
  return db
    .selectFrom("users")
    .select((eb) => [
      "id",
      "name",
      "email",
      "locale",
      "role",
      "status",
      "coin_balance_cents",
      "created_at",
      "admin_note",
      "two_factor_enabled",
      activeServicesCount(db, userId).as("active_services"),
      eb
        .selectFrom("orders")
        .select((c) => c.fn.countAll<number>().as("n"))
        .where("orders.user_id", "=", userId)
        .as("orders"),
      pendingOrdersCount(db, userId).as("pending_orders"),
      openTicketsCount(db, userId).as("open_tickets"),
    ])
    .where("id", "=", userId)
    .executeTakeFirst();
}

type ClientRow = NonNullable<Awaited<ReturnType<typeof readClient>>>;

function countsOf(row: ClientRow): ClientCounts {
  return {
    activeServices: Number(row.active_services ?? 0),
    orders: Number(row.orders ?? 0),
    pendingOrders: Number(row.pending_orders ?? 0),
    openTickets: Number(row.open_tickets ?? 0),
  };
}

/** The newest `size` coin movements, and whether older ones exist. */
async function latestLedger(db: Db, userId: string, size: number) {
  const { entries, nextBefore } = await listLedgerPage(db, userId);
  return { rows: entries.slice(0, size), hasMore: entries.length > size || nextBefore !== null };
}

/** The audit targets that belong to a client besides their account, and the table that says whose. */
const OWNED_TARGETS = [
  { targetType: "order", table: "orders" },
  { targetType: "hosting_service", table: "hosting_services" },
  { targetType: "ticket", table: "tickets" },
] as const;

/**
 * The newest audit entries about a client: their account, and their orders, services and tickets. One
 * query per kind of target, each by the log's (target_type, target_id) index, then the newest of all:
 * a client's few entries are found without reading the rest of the log.
 */
async function latestAudit(
  db: Db,
  userId: string,
  size: number,
): Promise<Latest<ClientAuditEntry>> {
  const base = () =>
    db
      .selectFrom("audit_log")
      .leftJoin("users as actor", "actor.id", "audit_log.actor_id")
      .select(AUDIT_ENTRY_COLUMNS)
      .orderBy("audit_log.id", "desc")
      .limit(size + 1);
  const lists = await Promise.all([
    base()
      .where("audit_log.target_type", "=", "user")
      .where("audit_log.target_id", "=", userId)
      .execute(),
    ...OWNED_TARGETS.map(({ targetType, table }) =>
      base()
        .where("audit_log.target_type", "=", targetType)
        .where(
          "audit_log.target_id",
          "in",
          db
            .selectFrom(table)
            // The log keeps ids as text on both databases.
            .select(sql<string>`cast(id as text)`.as("id"))
            .where("user_id", "=", userId),
        )
        .execute(),
    ),
  ]);
  const rows = lists
    .flat()
    .sort((a, b) => Number(b.id) - Number(a.id))
    .map((row): ClientAuditEntry => ({
      id: Number(row.id),
      at: row.created_at,
      action: row.action,
      targetType: row.target_type as ClientAuditEntry["targetType"],
      targetId: row.target_id,
      actorEmail: row.actor_email,
      reason: row.reason,
    }));
  return { rows: rows.slice(0, size), hasMore: rows.length > size };
}

/**
 * The client page's read model: the account (deleted ones too: their orders and ledger stay), its counts,
 * and the newest of its services, orders, tickets, invoices, top-ups, mail, coin movements and audit
 * entries, each list one query (its customer's index). Top-ups name their method in `locale`. Undefined
 * when no account has this id (or the id cannot be one).
 */
export async function getClientDetail(
  db: Db,
  userId: string,
  locale = "en",
): Promise<ClientDetail | undefined> {
  const row = await readClient(db, userId);
  if (!row) return undefined;
  const latest = { page: 1, pageSize: CLIENT_SECTION_SIZE };
  const [deletion, services, orders, tickets, invoices, topUps, mail, ledger, audit] =
    await Promise.all([
      pendingDeletionRequest(db, userId),
      listCustomerServicePage(db, userId, latest),
      listCustomerOrders(db, userId, latest),
      listCustomerTickets(db, userId, latest),
      listCustomerDocuments(db, userId, latest),
      latestTopUpsOf(db, userId, CLIENT_SECTION_SIZE, locale),
      latestMailOf(db, userId, CLIENT_SECTION_SIZE),
      latestLedger(db, userId, CLIENT_SECTION_SIZE),
      latestAudit(db, userId, CLIENT_SECTION_SIZE),
    ]);
  const profile: ClientProfile = {
    id: row.id,
    name: row.name,
    email: row.email,
    locale: row.locale,
    role: row.role,
    status: row.status,
    coinBalanceCents: row.coin_balance_cents,
    createdAt: row.created_at,
    deletionRequestedAt: deletion?.requestedAt ?? null,
    adminNote: row.admin_note,
    // A boolean on PostgreSQL, 0 or 1 on SQLite.
    twoFactorEnabled: Boolean(row.two_factor_enabled),
  };
  return {
    profile,
    counts: countsOf(row),
    services: { rows: services.services, hasMore: services.hasMore },
    orders: { rows: orders.orders, hasMore: orders.hasMore },
    tickets: { rows: tickets.tickets, hasMore: tickets.hasMore },
    invoices: { rows: invoices.documents, hasMore: invoices.hasMore },
    topUps,
    mail,
    ledger,
    audit,
  };
}

/** What the ticket page's sidebar shows about a customer: their counts and newest few of each list. */
async function getClientSummary(db: Db, userId: string): Promise<ClientSummary | undefined> {
  const row = await readClient(db, userId);
  if (!row) return undefined;
  const latest = { page: 1, pageSize: CLIENT_SUMMARY_SIZE };
  const [services, orders, ledger] = await Promise.all([
    listCustomerServicePage(db, userId, latest),
    listCustomerOrders(db, userId, latest),
    latestLedger(db, userId, CLIENT_SUMMARY_SIZE),
  ]);
  return {
    counts: countsOf(row),
    services: { rows: services.services, hasMore: services.hasMore },
    orders: { rows: orders.orders, hasMore: orders.hasMore },
    ledger,
  };
}

/**
 * The admin ticket page: the ticket, its thread and its customer (getTicketForAdmin), with what the
 * sidebar shows about that customer. Undefined when there is no such ticket.
 */
export async function getTicketWithClient(db: Db, ticketId: number) {
  const found = await getTicketForAdmin(db, ticketId);
  if (!found) return undefined;
  const client = await getClientSummary(db, found.customer.id);
  if (!client) return undefined;
  return { ...found, client };
}

export type SaveClientNoteResult =
  | { ok: true; message: "admin-clients.note.saved"; changed: boolean }
  | { ok: false; kind: "notFound"; error: "admin-clients.errors.notFound" }
  | { ok: false; kind: "conflict"; error: "admin-clients.errors.deleted" };

/**
 * An admin writes (or clears, with null) their note on an account, recorded with the old and new note
 * in the same transaction. The same note again changes and records nothing. A deleted
 * account takes no note: its personal data is gone and stays gone.
 */
export async function saveClientNote(
  db: Db,
  input: { userId: string; note: string | null; actorId: string },
): Promise<SaveClientNoteResult> {
  if (!clientIdSchema.safeParse(input.userId).success)
    return { ok: false, kind: "notFound", error: "admin-clients.errors.notFound" };
  return inTransaction(db, async (trx): Promise<SaveClientNoteResult> => {
    const user = await trx
      .selectFrom("users")
      .select(["id", "status", "admin_note"])
      .where("id", "=", input.userId)
      .executeTakeFirst();
    if (!user) refuse<SaveClientNoteResult>("notFound", "admin-clients.errors.notFound");
    if (user.status === "deleted")
      refuse<SaveClientNoteResult>("conflict", "admin-clients.errors.deleted");
    if (user.admin_note === input.note)
      return { ok: true, message: "admin-clients.note.saved", changed: false };
    await trx
      .updateTable("users")
      .set({ admin_note: input.note, updated_at: new Date().toISOString() })
      .where("id", "=", user.id)
      .execute();
    await record(trx, {
      type: "client.noteChanged",
      actorId: input.actorId,
      userId: user.id,
      change: { before: user.admin_note, after: input.note },
    });
    return { ok: true, message: "admin-clients.note.saved", changed: true };
  });
}
