import type { Db, Tx } from "~/db/transaction";
import type { Notification, NotificationKind } from "./notifications";

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

export async function listNotifications(db: Db, userId: string, limit = 10) {
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
        .where("user_id", "=", userId)
        .where("read_at", "is", null)
        .as("unread"),
    ])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return {
    unread: Number(rows[0]?.unread ?? 0),
    items: rows.map((row): Notification => ({
      id: Number(row.id),
      kind: row.kind as NotificationKind,
      params: parseParams(row.params),
      link: row.link,
      read: row.read_at !== null,
      createdAt: row.created_at,
    })),
  };
}

/** Opening the list marks the user's notifications read; nobody else's. */
export async function markNotificationsRead(db: Db, userId: string): Promise<void> {
  await db
    .updateTable("notifications")
    .set({ read_at: new Date().toISOString() })
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .execute();
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
