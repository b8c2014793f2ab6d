import { record } from "~/domain/events/events.server";
import { adjustCoins, type AdjustCoinsFailure } from "~/domain/coins/coins.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import { LIST_PAGE_SIZE } from "~/domain/customer-dashboard/customer-dashboard";
import { customerCount, isCustomersRow, ofCustomer, withOwner } from "~/db/customer-rows";
import {
  inTransaction,
  storeOncePerKey,
  refuse,
  rowOrRefuse,
  type Db,
  type Tx,
} from "~/db/transaction";
import {
  WAITING_STATUSES,
  type Department,
  type Priority,
  type Ticket,
  type TicketMessage,
  type TicketCreditKind,
  type TicketStatus,
} from "./tickets";
import { issuePaymentReceipt } from "~/domain/invoices/issuing.server";
import {
  unverifiedEmailRefusal,
  type UnverifiedEmailRefusal,
} from "~/domain/accounts/email-verification.server";
import { countTicketPost, type TicketLimitRefusal } from "./ticket-limits.server";
import { staffNoticeOfReply, staffNoticeOfTicket } from "./staff-ticket-notices.server";
import { ticketColumns, toTicket } from "./ticket-rows.server";
import type { Upload } from "~/domain/files/uploads.server";
import {
  attachTicketFiles,
  filesOfMessages,
  withTicketFiles,
  type PreparedTicketFile,
  type TicketFileRefusal,
} from "./ticket-files.server";

/** A step: stores a message with its files (ticket-files.server.ts); an internal note is the staff's. */
export async function addMessage(
  trx: Tx,
  input: {
    ticketId: number;
    authorId: string;
    isStaff: boolean;
    body: string;
    idempotencyKey?: string;
    internal?: boolean;
    files?: readonly PreparedTicketFile[];
  },
  now = new Date(),
) {
  const row = await trx
    .insertInto("ticket_messages")
    .values({
      ticket_id: input.ticketId,
      author_id: input.authorId,
      is_staff: input.isStaff ? 1 : 0,
      body: input.body,
      idempotency_key: input.idempotencyKey ?? null,
      internal: input.internal ? 1 : 0,
      created_at: now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const message = {
    ticketId: input.ticketId,
    messageId: Number(row.id),
    uploaderId: input.authorId,
  };
  await attachTicketFiles(trx, message, input.files ?? [], now);
}

/** A form's key used by another author, or on another ticket: the form is stale, as an order's key is. */
const formExpired = { ok: false, kind: "invalid", error: "tickets.errors.formExpired" } as const;
export type FormExpired = typeof formExpired;

/**
 * Stores a form's message once per key (as orders do, ADR 10). The key is looked up first: a
 * post sent again (a double tap, a retry, the browser resending it) gets `again` for the ticket the first
 * one wrote into, and writes nothing. Two posts racing with one key are settled by the unique index
 * (migration 0025): the second's transaction fails and it finds the first. A key its author did not use
 * on this ticket is refused as an expired form. Without a key (a script), the message is simply stored.
 */
export async function oncePerKey<R>(
  db: Db,
  key: string | undefined,
  owner: { authorId: string; ticketId?: number },
  again: (ticketId: number) => Promise<R> | R,
  store: () => Promise<R>,
): Promise<R | FormExpired> {
  const earlier = async (): Promise<R | FormExpired | undefined> => {
    if (!key) return undefined;
    const row = await db
      .selectFrom("ticket_messages")
      .select(["ticket_id", "author_id"])
      .where("idempotency_key", "=", key)
      .executeTakeFirst();
    if (!row) return undefined;
    const ticketId = Number(row.ticket_id);
    if (row.author_id !== owner.authorId) return formExpired;
    if (owner.ticketId !== undefined && ticketId !== owner.ticketId) return formExpired;
    return again(ticketId);
  };
  return storeOncePerKey(earlier, store);
}

export type OpenTicketResult =
  /** `duplicate`: the form's key had opened this ticket already; nothing new was stored. */
  | { ok: true; ticket: Ticket; duplicate?: true }
  | FormExpired
  /**
   * The form names a service that is not the customer's: `invalid`, not `notFound`, on purpose. What is
   * wrong is the form's service field, answered with the form again and its message.
   */
  | { ok: false; kind: "invalid"; error: "tickets.errors.serviceNotFound" };

export type OpenCustomerTicketResult =
  | OpenTicketResult
  | { ok: false; kind: "forbidden"; error: "tickets.errors.newTicketsClosed" }
  /** The account's address is not verified while that is required (docs/accounts.md). */
  | UnverifiedEmailRefusal
  /** Too many tickets opened lately (TICKET_LIMITS.open): the form comes back as typed. */
  | TicketLimitRefusal
  /** A file refused (which, and why): nothing is stored, the form comes back as typed. */
  | TicketFileRefusal;

/**
 * A customer opens a ticket (/support/new). Refused while the admin has switched tickets off (the
 * `tickets` feature); tickets already open keep working either way (docs/admin.md, Settings). Counted
 * against the account's limits (TICKET_LIMITS.open) in the transaction that stores it: a form sent
 * again (its key) is not counted twice, and a refused one is not counted at all.
 */
export async function openCustomerTicket(
  db: Db,
  input: Parameters<typeof openTicket>[1] & { uploads?: readonly Upload[] },
  options: {
    ticketsOpen: boolean;
    /** An unverified address is refused (verifiedEmailRequired: the setting, with SMTP). */
    requireVerifiedEmail?: boolean;
    now?: Date;
  },
): Promise<OpenCustomerTicketResult> {
  if (!options.ticketsOpen)
    return { ok: false, kind: "forbidden", error: "tickets.errors.newTicketsClosed" };
  // Asking for coins is a ticket too (the coin dialog opens /support/new?topic=coins): one gate for both.
  const unverified = await unverifiedEmailRefusal(db, input.userId, options.requireVerifiedEmail);
  if (unverified) return unverified;
  const { uploads = [], ...fields } = input;
  const now = options.now ?? new Date();
  const opened = await withTicketFiles(
    db,
    { uploaderId: input.userId, uploads, limited: true, now },
    (files) => openTicket(db, { ...fields, files }, { now, limited: true }),
  );
  return opened as OpenCustomerTicketResult;
}

/**
 * Opens a ticket with its first message. Without `limited`, the account's limits are not counted:
 * for scripts and seeds; a customer's form goes through openCustomerTicket.
 */
export async function openTicket(
  db: Db,
  input: {
    userId: string;
    department: Department;
    subject: string;
    priority: Priority;
    message: string;
    serviceId?: number;
    /** The form's key: the same form sent twice opens one ticket. */
    idempotencyKey?: string;
    /** Files sent with the first message, read already (prepareTicketFiles). */
    files?: readonly PreparedTicketFile[];
  },
  options: { now?: Date; limited?: boolean } = {},
): Promise<OpenTicketResult | TicketLimitRefusal> {
  const opened = async (ticketId: number): Promise<OpenTicketResult> => {
    const row = await db
      .selectFrom("tickets")
      .select(ticketColumns)
      .where("id", "=", ticketId)
      .executeTakeFirstOrThrow();
    return { ok: true, ticket: toTicket(row), duplicate: true };
  };
  return oncePerKey<OpenTicketResult | TicketLimitRefusal>(
    db,
    input.idempotencyKey,
    { authorId: input.userId },
    opened,
    () => insertTicket(db, input, options),
  );
}

async function insertTicket(
  db: Db,
  input: Parameters<typeof openTicket>[1],
  options: Parameters<typeof openTicket>[2],
): Promise<OpenTicketResult | TicketLimitRefusal> {
  const at = options?.now ?? new Date();
  return inTransaction(db, async (trx) => {
    if (input.serviceId) {
      // Only one of the customer's own services can be attached.
      if (!(await isCustomersRow(trx, "hosting_services", input.serviceId, input.userId)))
        refuse<OpenTicketResult>("invalid", "tickets.errors.serviceNotFound");
    }
    if (options?.limited) await countTicketPost(trx, { userId: input.userId, what: "open" }, at);
    // Told to staff at once, or in its window's summary (staff-ticket-notices.server.ts); decided
    // before the ticket is stored, so the first ticket of a window has the lowest number in it.
    const summary = await staffNoticeOfTicket(trx, at);
    const now = at.toISOString();
    const row = await trx
      .insertInto("tickets")
      .values({
        user_id: input.userId,
        department: input.department,
        subject: input.subject,
        priority: input.priority,
        status: "open",
        hosting_service_id: input.serviceId ?? null,
        waiting_since: now,
        created_at: now,
        updated_at: now,
      })
      .returning(ticketColumns)
      .executeTakeFirstOrThrow();
    await addMessage(
      trx,
      {
        ticketId: Number(row.id),
        authorId: input.userId,
        isStaff: false,
        body: input.message,
        idempotencyKey: input.idempotencyKey,
        files: input.files,
      },
      at,
    );
    await record(
      trx,
      {
        type: "ticket.opened",
        ticketId: Number(row.id),
        department: input.department,
        subject: input.subject,
        message: input.message,
        summary: summary ?? null,
      },
      at,
    );
    return { ok: true, ticket: toTicket(row) };
  });
}

/** A ticket's thread with its files; the staff's internal notes only for the staff (`viewer`). */
async function messagesOf(
  db: Db,
  ticketId: number,
  viewer: "customer" | "staff",
): Promise<TicketMessage[]> {
  let query = db
    .selectFrom("ticket_messages")
    .leftJoin("users", "users.id", "ticket_messages.author_id")
    .select([
      "ticket_messages.id",
      "ticket_messages.is_staff",
      "ticket_messages.internal",
      "ticket_messages.body",
      "ticket_messages.created_at",
      "users.name",
    ])
    .where("ticket_messages.ticket_id", "=", ticketId);
  if (viewer === "customer") query = query.where("ticket_messages.internal", "=", 0);
  const rows = await query.orderBy("ticket_messages.id", "asc").execute();
  const files = await filesOfMessages(
    db,
    rows.map((row) => Number(row.id)),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    authorName: row.name ?? "",
    isStaff: row.is_staff === 1,
    internal: row.internal === 1,
    body: row.body,
    createdAt: row.created_at,
    files: files.get(Number(row.id)) ?? [],
  }));
}

/** A customer's own ticket with its thread, or undefined (another customer's ticket is "not found"). */
export async function getCustomerTicket(db: Db, userId: string, ticketId: number) {
  if (!Number.isSafeInteger(ticketId) || ticketId <= 0) return undefined;
  const row = await db
    .selectFrom("tickets")
    .select(ticketColumns)
    .where("id", "=", ticketId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ticket: toTicket(row), messages: await messagesOf(db, ticketId, "customer") };
}

export async function getTicketForAdmin(db: Db, ticketId: number) {
  if (!Number.isSafeInteger(ticketId) || ticketId <= 0) return undefined;
  const row = await withOwner(db, "tickets")
    .select([
      ...ticketColumns.map((c) => `tickets.${c}` as const),
      "users.name",
      "users.email",
      "users.coin_balance_cents",
    ])
    .where("tickets.id", "=", ticketId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ticket: toTicket(row),
    customer: {
      id: row.user_id,
      name: row.name,
      email: row.email,
      coinBalanceCents: row.coin_balance_cents,
    },
    messages: await messagesOf(db, ticketId, "staff"),
  };
}

export type CustomerTicketResult =
  /** `duplicate`: the reply's key had stored it already; nothing new was stored. */
  | { ok: true; duplicate?: true }
  | { ok: false; kind: "notFound"; error: "tickets.errors.notFound" }
  | FormExpired
  /** Too many replies lately (TICKET_LIMITS.reply): the reply comes back as typed. */
  | TicketLimitRefusal
  /** A file refused (which, and why): nothing is stored, the reply comes back as typed. */
  | TicketFileRefusal;

const ticketNotFound = { ok: false, kind: "notFound", error: "tickets.errors.notFound" } as const;

/** Step: the ticket (the customer's own, when `userId` is given), or a notFound refusal. */
export async function findTicketOrRefuse(trx: Tx, ticketId: number, userId?: string) {
  const query = trx
    .selectFrom("tickets")
    .select(["id", "user_id", "subject", "status", "priority", "department"])
    .where("id", "=", ticketId);
  return rowOrRefuse(ofCustomer(query, "tickets", userId), ticketNotFound);
}

/**
 * The customer replies, closes or reopens their own ticket. A reply to a closed ticket is not refused:
 * it reopens the ticket (status customer_reply), as the page says (tickets:thread.closedNote). A reply
 * carries its form's key and is stored once per key, and is counted against the account's limit
 * (TICKET_LIMITS.reply) in the transaction that stores it (a reply sent again is not counted twice).
 */
export async function customerTicketAction(
  db: Db,
  input: {
    userId: string;
    ticketId: number;
    action:
      | {
          intent: "reply";
          message: string;
          idempotencyKey?: string;
          /** Files sent with the reply, read before its transaction (prepareTicketFiles). */
          uploads?: readonly Upload[];
        }
      | { intent: "close" }
      | { intent: "reopen" };
  },
  now = new Date(),
): Promise<CustomerTicketResult> {
  if (input.action.intent !== "reply") return changeOwnTicket(db, input, now);
  return oncePerKey<CustomerTicketResult>(
    db,
    input.action.idempotencyKey,
    { authorId: input.userId, ticketId: input.ticketId },
    () => ({ ok: true, duplicate: true }) as const,
    () =>
      withTicketFiles(
        db,
        {
          uploaderId: input.userId,
          uploads: input.action.intent === "reply" ? (input.action.uploads ?? []) : [],
          limited: true,
          ticket: { id: input.ticketId, userId: input.userId },
          now,
        },
        (files) => changeOwnTicket(db, input, now, files),
      ),
  );
}

async function changeOwnTicket(
  db: Db,
  input: Parameters<typeof customerTicketAction>[1],
  at: Date,
  files: readonly PreparedTicketFile[] = [],
): Promise<CustomerTicketResult> {
  return inTransaction(db, async (trx) => {
    const ticket = await findTicketOrRefuse(trx, input.ticketId, input.userId);
    const now = at.toISOString();
    if (input.action.intent === "reply") {
      await countTicketPost(trx, { userId: input.userId, what: "reply" }, at);
      // Told to the admins who asked (at once, or in its window's summary), decided before the reply
      // is stored, so the first reply of a window has the lowest id in it.
      const summary = await staffNoticeOfReply(trx, at);
      await addMessage(
        trx,
        {
          ticketId: input.ticketId,
          authorId: input.userId,
          isStaff: false,
          body: input.action.message,
          idempotencyKey: input.action.idempotencyKey,
          files,
        },
        at,
      );
      await trx
        .updateTable("tickets")
        .set({
          status: "customer_reply",
          waiting_since:
            ticket.status === "customer_reply" || ticket.status === "open" ? undefined : now,
          updated_at: now,
        })
        .where("id", "=", input.ticketId)
        .execute();
      await record(
        trx,
        {
          type: "ticket.customerReplied",
          ticketId: input.ticketId,
          department: ticket.department as Department,
          subject: ticket.subject,
          message: input.action.message,
          replyKey: input.action.idempotencyKey,
          summary: summary ?? null,
        },
        at,
      );
    } else {
      const closing = input.action.intent === "close";
      await trx
        .updateTable("tickets")
        .set({
          status: closing ? "closed" : "customer_reply",
          waiting_since: closing ? null : now,
          updated_at: now,
        })
        .where("id", "=", input.ticketId)
        .execute();
    }
    return { ok: true };
  });
}

export type AdminTicketResult =
  | { ok: true; message: "tickets.admin.replied" | "tickets.admin.updated" }
  /**
   * Coins added from the ticket: how many, and the balance after (a replayed form's key: what the first
   * post did, `coinsAlreadyAdded`).
   */
  | {
      ok: true;
      message:
        | "tickets.admin.coinsAdded"
        | "tickets.admin.coinsAddedWithReceipt"
        | "tickets.admin.coinsAlreadyAdded";
      amountCents: number;
      balanceCents: number;
      /** A payment's receipt number. */
      receipt?: string;
    }
  | { ok: false; kind: "notFound"; error: "tickets.errors.notFound" }
  | FormExpired
  /** Adding coins from a coins ticket: the refusals of any admin adjustment. */
  | AdjustCoinsFailure
  /** A file of a reply refused (which, and why): nothing is stored. */
  | TicketFileRefusal;

/** Staff answer a ticket; the reply's form key stores it once (and notifies the customer once). */
export async function staffReply(
  db: Db,
  input: {
    actorId: string;
    ticketId: number;
    message: string;
    idempotencyKey?: string;
    uploads?: readonly Upload[];
  },
): Promise<AdminTicketResult> {
  return oncePerKey<AdminTicketResult>(
    db,
    input.idempotencyKey,
    { authorId: input.actorId, ticketId: input.ticketId },
    () => ({ ok: true, message: "tickets.admin.replied" }) as const,
    () =>
      withTicketFiles(
        db,
        {
          uploaderId: input.actorId,
          uploads: input.uploads ?? [],
          limited: false,
          now: new Date(),
        },
        (files) => insertStaffReply(db, input, files),
      ),
  );
}

async function insertStaffReply(
  db: Db,
  input: Parameters<typeof staffReply>[1],
  files: readonly PreparedTicketFile[],
): Promise<AdminTicketResult> {
  return inTransaction(db, async (trx) => {
    const ticket = await findTicketOrRefuse(trx, input.ticketId);
    await addMessage(trx, {
      ticketId: input.ticketId,
      authorId: input.actorId,
      isStaff: true,
      body: input.message,
      idempotencyKey: input.idempotencyKey,
      files,
    });
    const now = new Date().toISOString();
    await trx
      .updateTable("tickets")
      .set({ status: "answered", waiting_since: null, updated_at: now })
      .where("id", "=", input.ticketId)
      .execute();
    await record(trx, {
      type: "ticket.answered",
      ticketId: input.ticketId,
      userId: ticket.user_id,
      subject: ticket.subject,
      reply: input.message,
      replyKey: input.idempotencyKey,
    });
    return { ok: true, message: "tickets.admin.replied" };
  });
}

export async function setTicketField(
  db: Db,
  input: { actorId: string; ticketId: number; status?: TicketStatus; priority?: Priority },
): Promise<AdminTicketResult> {
  return inTransaction(db, async (trx) => {
    const before = await findTicketOrRefuse(trx, input.ticketId);
    const now = new Date().toISOString();
    await trx
      .updateTable("tickets")
      .set({
        ...(input.status
          ? {
              status: input.status,
              waiting_since: WAITING_STATUSES.includes(input.status) ? now : null,
            }
          : {}),
        ...(input.priority ? { priority: input.priority } : {}),
        updated_at: now,
      })
      .where("id", "=", input.ticketId)
      .execute();
    await record(trx, {
      type: "ticket.fieldChanged",
      actorId: input.actorId,
      ticketId: input.ticketId,
      field: input.status ? "status" : "priority",
      change: {
        before: { status: before.status as TicketStatus, priority: before.priority as Priority },
        after: {
          status: input.status ?? (before.status as TicketStatus),
          priority: input.priority ?? (before.priority as Priority),
        },
      },
    });
    return { ok: true, message: "tickets.admin.updated" };
  });
}

/**
 * From a coins ticket, in one step: the same ledger path as any admin credit, with the ticket as reason,
 * the same bounds (MAX_ADJUSTMENT_CENTS a credit, MAX_BALANCE_CENTS a balance, the caps of the actor's
 * staff role, a payment counting towards Support's daily limit as goodwill does) and the form's
 * idempotency key, so a replayed post credits once (and says so, with what the first post did). A
 * payment (the default) is a coin purchase (`coin_purchase`) with its payment receipt issued in the
 * same transaction; a goodwill credit is an `admin_adjustment` and issues no document.
 */
export async function addCoinsFromTicket(
  db: Db,
  input: {
    actorId: string;
    ticketId: number;
    amountCents: number;
    note?: string;
    idempotencyKey?: string;
    creditAs?: TicketCreditKind;
    /** The clock (a daily goodwill limit counts in its day). */
    now?: Date;
  },
): Promise<AdminTicketResult> {
  const ticket = await db
    .selectFrom("tickets")
    .select(["id", "user_id", "subject"])
    .where("id", "=", input.ticketId)
    .executeTakeFirst();
  if (!ticket) return ticketNotFound;
  const payment = (input.creditAs ?? "payment") === "payment";
  const id = Number(ticket.id);
  const about = { id, subject: ticket.subject };
  const reason = payment
    ? input.note
      ? ledgerReason("ticketPurchaseNote", { ...about, note: input.note })
      : ledgerReason("ticketPurchase", about)
    : input.note
      ? ledgerReason("ticketGoodwillNote", { ...about, note: input.note })
      : ledgerReason("ticketGoodwill", about);
  const result = await adjustCoins(db, {
    userId: ticket.user_id,
    amountCents: input.amountCents,
    kind: payment ? "coin_purchase" : "admin_adjustment",
    reason,
    actorId: input.actorId,
    link: `/support/${ticket.id}`,
    idempotencyKey: input.idempotencyKey,
    now: input.now,
    receipt: payment
      ? async (trx, credit) => {
          const receipt = await issuePaymentReceipt(trx, {
            userId: ticket.user_id,
            amountCents: credit.amountCents,
            ledgerEntryId: credit.entryId,
            ticketId: id,
            actorId: input.actorId,
          });
          return { kind: receipt.kind, number: receipt.number, totalCents: receipt.totalCents };
        }
      : undefined,
  });
  if (!result.ok) return result;
  return {
    ok: true,
    message: result.duplicate
      ? "tickets.admin.coinsAlreadyAdded"
      : result.receipt
        ? "tickets.admin.coinsAddedWithReceipt"
        : "tickets.admin.coinsAdded",
    amountCents: result.appliedCents,
    balanceCents: result.balanceCents,
    ...(result.receipt ? { receipt: result.receipt.number } : {}),
  };
}

/** A customer's tickets, last changed first, a page of the dashboard's LIST_PAGE_SIZE at a time. */
export async function listCustomerTickets(db: Db, userId: string, page: PageRequest = { page: 1 }) {
  const { rows, hasMore } = await fetchPage(
    db
      .selectFrom("tickets")
      .select(ticketColumns)
      .where("user_id", "=", userId)
      .orderBy("updated_at", "desc")
      .orderBy("id", "desc"),
    pageWindow(page, LIST_PAGE_SIZE),
  );
  return { tickets: rows.map(toTicket), hasMore };
}

export async function countOpenTickets(db: Db, userId?: string): Promise<number> {
  return Number((await openTicketsCount(db, userId).executeTakeFirstOrThrow()).count);
}

/** The count of tickets not closed (one customer's, or everyone's), as a query to run or to nest. */
export function openTicketsCount(db: Db, userId?: string) {
  return customerCount(db.selectFrom("tickets").where("status", "!=", "closed"), "tickets", userId);
}

// The staff queue is a module of its own; its callers found it here first.
export { listTicketQueue, TICKET_QUEUE_PAGE_SIZE } from "./ticket-queue.server";
