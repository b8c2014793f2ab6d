import type { ExpressionBuilder } from "kysely";
import { activeAdminsOnce } from "~/domain/accounts/user-directory.server";
import type { Database } from "~/db/schema";
import { countRows, fetchPage, pageWindow } from "~/db/paging";
import type { Db, Tx } from "~/db/transaction";
import {
  BELL_LIMIT,
  NOTIFICATIONS_PAGE_SIZE,
  STAFF_NOTIFICATION_KINDS,
  type Notification,
  type NotificationFilter,
  type NotificationKind,
} from "./notifications";

/** A step: a notification written in the same transaction as the event it tells about. */
export async function notify(
  trx: Tx,
  input: {
    userId: string;
    kind: NotificationKind;
    params?: Record<string, string | number>;
    link: string;
    dedupeKey?: string;
    /** When it happened (the lifecycle's clock); now by default. */
    now?: Date;
  },
): Promise<boolean> {
  // Whether it was written: false when one with the same dedupe key exists already.
  const result = await trx
    .insertInto("notifications")
    .values({
      user_id: input.userId,
      kind: input.kind,
      params: JSON.stringify(input.params ?? {}),
      link: input.link,
      dedupe_key: input.dedupeKey ?? null,
      created_at: (input.now ?? new Date()).toISOString(),
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

function parseParams(raw: string): Record<string, string | number> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" ? (value as Record<string, string | number>) : {};
  } catch {
    return {};
  }
}

type NotificationRow = {
  id: number;
  kind: string;
  params: string;
  link: string;
  read_at: string | null;
  created_at: string;
};

function toNotification(row: NotificationRow): Notification {
  return {
    id: Number(row.id),
    kind: row.kind as NotificationKind,
    params: parseParams(row.params),
    link: row.link,
    read: row.read_at !== null,
    createdAt: row.created_at,
  };
}

/**
 * The rows of `userId`'s own list: all of them for an admin; for anyone else none of the staff's kinds
 * (an admin made a customer again keeps no view of the staff's business).
 */
function ownRows(userId: string, staff: boolean) {
  return (eb: ExpressionBuilder<Database, "notifications">) =>
    staff
      ? eb("user_id", "=", userId)
      : eb.and([eb("user_id", "=", userId), eb("kind", "not in", STAFF_NOTIFICATION_KINDS)]);
}

/**
 * The bell's list: `userId`'s newest notifications and how many are unread. `staff` for an admin, whose
 * list holds the staff's kinds too.
 */
export async function listNotifications(
  db: Db,
  userId: string,
  limit = BELL_LIMIT,
  { staff = false }: { staff?: boolean } = {},
) {
  // Every row carries the unread count, so the list and the count are one query (one round trip on
  // PostgreSQL; this runs on every signed-in page). No rows means no notifications, so none unread.
  const rows = await db
    .selectFrom("notifications")
    .select([
      "id",
      "kind",
      "params",
      "link",
      "read_at",
      "created_at",
      db
        .selectFrom("notifications")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where(ownRows(userId, staff))
        .where("read_at", "is", null)
        .as("unread"),
    ])
    .where(ownRows(userId, staff))
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return {
    unread: Number(rows[0]?.unread ?? 0),
    items: rows.map(toNotification),
  };
}

/**
 * /admin/notifications: a page of the admin's own notifications, newest first (every one, or the unread
 * ones), how many the filter matches, how many they have and how many are unread.
 */
export async function listNotificationPage(
  db: Db,
  userId: string,
  query: { show: NotificationFilter; page: number; pageSize?: number },
) {
  const own = db.selectFrom("notifications").where("user_id", "=", userId);
  const shown = query.show === "unread" ? own.where("read_at", "is", null) : own;
  const [{ rows, hasMore }, matching, total, unread] = await Promise.all([
    fetchPage(
      shown.select(["id", "kind", "params", "link", "read_at", "created_at"]).orderBy("id", "desc"),
      pageWindow(query, NOTIFICATIONS_PAGE_SIZE),
    ),
    countRows(shown),
    countRows(own),
    countRows(own.where("read_at", "is", null)),
  ]);
  return { notifications: rows.map(toNotification), hasMore, matching, total, unread };
}

/**
 * Opening the bell, or "Mark all read", marks the user's own notifications read; nobody else's (each
 * admin has their own). Returns how many were unread.
 */
export async function markNotificationsRead(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<number> {
  const result = await db
    .updateTable("notifications")
    .set({ read_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A step: tells every active admin, each in their own list, once per `dedupeKey` (the admin's id is
 * appended: `<dedupeKey>:<admin id>`), in the caller's transaction, so the notice exists if and only if
 * what it tells of committed. The admins are read in one order in every process, so two transactions
 * writing the same keys wait on each other and never deadlock. Returns how many admins there are and
 * how many notices were new.
 */
export async function notifyStaff(
  trx: Tx,
  notice: {
    kind: (typeof STAFF_NOTIFICATION_KINDS)[number];
    params: Record<string, string | number>;
    link: string;
    dedupeKey: string;
    now?: Date;
  },
): Promise<{ admins: number; written: number }> {
  const admins = await activeAdminsOnce(trx);
  if (admins.length === 0) return { admins: 0, written: 0 };
  const written = await notifyOnce(
    trx,
    admins.map((admin) => ({
      userId: admin.id,
      kind: notice.kind,
      params: notice.params,
      link: notice.link,
      dedupeKey: `${notice.dedupeKey}:${admin.id}`,
    })),
    notice.now ?? new Date(),
  );
  return { admins: admins.length, written };
}

/** One notification of a batch that is written once per key (`notifyOnce`). */
export interface KeyedNotice {
  userId: string;
  kind: NotificationKind;
  params: Record<string, string | number>;
  link: string;
  dedupeKey: string;
}

/**
 * A step: many notifications at once, each written only if its key is new (a reminder, a warning: the
 * event is the time passing, and a run made again must not tell it twice). Returns how many were new.
 */
export async function notifyOnce(trx: Tx, notices: KeyedNotice[], now: Date): Promise<number> {
  let written = 0;
  // A few hundred rows a statement: well under SQLite's and PostgreSQL's limits on parameters.
  for (let i = 0; i < notices.length; i += 200) {
    const rows = await trx
      .insertInto("notifications")
      .values(
        notices.slice(i, i + 200).map((notice) => ({
          user_id: notice.userId,
          kind: notice.kind,
          params: JSON.stringify(notice.params),
          link: notice.link,
          dedupe_key: notice.dedupeKey,
          created_at: now.toISOString(),
        })),
      )
      .onConflict((oc) => oc.column("dedupe_key").doNothing())
      .returning("id")
      .execute();
    written += rows.length;
  }
  return written;
}

/** Which of `keys` some notification already carries (looked up a few hundred at a time). */
export async function writtenNoticeKeys(db: Db, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db
      .selectFrom("notifications")
      .select("dedupe_key")
      .where("dedupe_key", "in", keys.slice(i, i + 500))
      .execute();
    for (const row of rows) if (row.dedupe_key) found.add(row.dedupe_key);
  }
  return found;
}
