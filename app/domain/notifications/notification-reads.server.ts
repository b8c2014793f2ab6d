import type { ExpressionBuilder } from "kysely";
import type { Database } from "~/db/schema";
import { countRows, fetchPage, pageWindow } from "~/db/paging";
import type { Db } from "~/db/transaction";
import {
  BELL_LIMIT,
  NOTIFICATIONS_PAGE_SIZE,
  STAFF_NOTIFICATION_KINDS,
  type Notification,
  type NotificationFilter,
  type NotificationKind,
} from "./notifications";

// What a person reads of their notices: the bell's list, /admin/notifications, marking them read; and
// which keys were told already (the lifecycle's plan). The writers are notifications.server.ts.

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
