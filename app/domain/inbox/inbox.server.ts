import { sql } from "kysely";
import { containsAny } from "~/db/like-pattern";
import { countRows, fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import { inTransaction, refuse, type Db } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { csvDate, toCsv } from "~/lib/csv";
import {
  CONTACT_PAGE_SIZE,
  SUBSCRIBERS_PAGE_SIZE,
  type ContactFilter,
  type ContactMessageView,
  type SubscriberView,
} from "./inbox";

const contactColumns = [
  "id",
  "name",
  "email",
  "subject",
  "message",
  "read_at",
  "created_at",
] as const;

/** The active account with the message's address (emails are stored lowercase; a unique index). */
const senderAccount = sql<string | null>`(
  select users.id from users
  where users.email = lower(contact_messages.email) and users.status = 'active'
)`.as("user_id");

function toContactMessage(row: {
  id: number;
  name: string;
  email: string;
  user_id: string | null;
  subject: string;
  message: string;
  read_at: string | null;
  created_at: string;
}): ContactMessageView {
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    userId: row.user_id,
    subject: row.subject,
    message: row.message,
    readAt: row.read_at,
    createdAt: row.created_at,
  };
}

/**
 * The contact form's messages for admins, newest first, searched (name, email or subject, any case;
 * `%` and `_` are plain characters) and paged on the server. Also counts what the filter matches, the
 * unread messages in all, and returns the message asked for in full (`open`), wherever it is in the list.
 */
export async function listContactMessages(
  db: Db,
  query: PageRequest & { q?: string; show?: ContactFilter; open?: number },
) {
  let base = db.selectFrom("contact_messages");
  const q = query.q?.trim().toLowerCase();
  if (q) base = base.where(containsAny(["lower(name)", "lower(email)", "lower(subject)"], q));
  if (query.show === "unread") base = base.where("read_at", "is", null);

  const [{ rows, hasMore }, matching, counts, opened] = await Promise.all([
    fetchPage(
      base.select(contactColumns).select(senderAccount).orderBy("id", "desc"),
      pageWindow(query, CONTACT_PAGE_SIZE),
    ),
    countRows(base),
    db
      .selectFrom("contact_messages")
      .select([
        sql<number>`count(*)`.as("total"),
        sql<number>`coalesce(sum(case when read_at is null then 1 else 0 end), 0)`.as("unread"),
      ])
      .executeTakeFirstOrThrow(),
    query.open
      ? db
          .selectFrom("contact_messages")
          .select(contactColumns)
          .select(senderAccount)
          .where("id", "=", query.open)
          .executeTakeFirst()
      : undefined,
  ]);
  return {
    messages: rows.map(toContactMessage),
    hasMore,
    matching,
    total: Number(counts.total),
    unread: Number(counts.unread),
    opened: opened ? toContactMessage(opened) : null,
  };
}

export type ContactChangeResult =
  { ok: true } | { ok: false; kind: "notFound"; error: "admin-inbox.errors.messageNotFound" };

/**
 * Marks a message read or unread. Reading keeps the first time it was read. Not audited: it is a reading
 * mark, like a mail client's, and changes nothing anyone else sees; an entry per opened message would
 * bury the admin changes the log is for.
 */
export async function markContactMessage(
  db: Db,
  input: { id: number; read: boolean; now?: Date },
): Promise<ContactChangeResult> {
  const now = (input.now ?? new Date()).toISOString();
  const updated = await db
    .updateTable("contact_messages")
    .set({ read_at: input.read ? sql<string>`coalesce(read_at, ${now})` : null })
    .where("id", "=", input.id)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1
    ? { ok: true }
    : { ok: false, kind: "notFound", error: "admin-inbox.errors.messageNotFound" };
}

/**
 * Deletes a message for good, recorded in the same transaction. Its audit entry keeps when the
 * message came and whether it had been read, not who wrote it or what: deleting is how personal data
 * leaves.
 */
export async function deleteContactMessage(
  db: Db,
  input: { id: number; actorId: string },
): Promise<ContactChangeResult> {
  return inTransaction(db, async (trx): Promise<ContactChangeResult> => {
    const row = await trx
      .deleteFrom("contact_messages")
      .where("id", "=", input.id)
      .returning(["id", "read_at", "created_at"])
      .executeTakeFirst();
    if (!row) refuse<ContactChangeResult>("notFound", "admin-inbox.errors.messageNotFound");
    await record(trx, {
      type: "contactMessage.deleted",
      actorId: input.actorId,
      messageId: Number(row.id),
      receivedAt: row.created_at,
      read: row.read_at !== null,
    });
    return { ok: true };
  });
}

/** Newsletter subscribers, newest first, searched by email and paged on the server, with counts. */
export async function listNewsletterSubscribers(db: Db, query: PageRequest & { q?: string }) {
  let base = db.selectFrom("newsletter_subscribers");
  const q = query.q?.trim().toLowerCase();
  // Addresses are stored lower-cased (subscribeToNewsletter).
  if (q) base = base.where(containsAny(["email"], q));
  const [{ rows, hasMore }, matching, total] = await Promise.all([
    fetchPage(
      base.select(["id", "email", "created_at", "confirmed_at"]).orderBy("id", "desc"),
      pageWindow(query, SUBSCRIBERS_PAGE_SIZE),
    ),
    countRows(base),
    countRows(db.selectFrom("newsletter_subscribers")),
  ]);
  return {
    subscribers: rows.map((row): SubscriberView => ({
      id: Number(row.id),
      email: row.email,
      createdAt: row.created_at,
      confirmedAt: row.confirmed_at ? new Date(row.confirmed_at).toISOString() : null,
    })),
    hasMore,
    matching,
    total,
  };
}

export type RemoveSubscriberResult =
  { ok: true } | { ok: false; kind: "notFound"; error: "admin-inbox.errors.subscriberNotFound" };

/**
 * Takes an address off the list, recorded in the same transaction. Its audit entry names the row
 * and when it subscribed, not the address: removing it is the point.
 */
export async function removeNewsletterSubscriber(
  db: Db,
  input: { id: number; actorId: string },
): Promise<RemoveSubscriberResult> {
  return inTransaction(db, async (trx): Promise<RemoveSubscriberResult> => {
    const row = await trx
      .deleteFrom("newsletter_subscribers")
      .where("id", "=", input.id)
      .returning(["id", "created_at"])
      .executeTakeFirst();
    if (!row) refuse<RemoveSubscriberResult>("notFound", "admin-inbox.errors.subscriberNotFound");
    await record(trx, {
      type: "newsletterSubscriber.removed",
      actorId: input.actorId,
      subscriberId: Number(row.id),
      subscribedAt: row.created_at,
    });
    return { ok: true };
  });
}

export const SUBSCRIBERS_CSV_HEADER = ["email", "subscribed_at"];

/** Every subscriber as a CSV file (oldest first, the order they joined), with its file name. */
export async function exportNewsletterSubscribersCsv(
  db: Db,
  { now = new Date() }: { now?: Date } = {},
) {
  const rows = await db
    .selectFrom("newsletter_subscribers")
    .select(["email", "created_at"])
    .orderBy("id")
    .execute();
  return {
    filename: `hostfront-newsletter-subscribers-${csvDate(now)}.csv`,
    body: toCsv(
      SUBSCRIBERS_CSV_HEADER,
      rows.map((row) => [row.email, row.created_at]),
    ),
  };
}
