import type { Db, Tx } from "~/db/transaction";
import { EXPIRY_WARNING_DAYS, type Notification, type NotificationKind } from "./notifications";

/** A step: a notification written in the same transaction as the event it tells about. */
export async function notify(
  trx: Tx,
  input: {
    userId: string;
    kind: NotificationKind;
    params?: Record<string, string | number>;
    link: string;
    dedupeKey?: string;
  },
): Promise<void> {
  await trx
    .insertInto("notifications")
    .values({
      user_id: input.userId,
      kind: input.kind,
      params: JSON.stringify(input.params ?? {}),
      link: input.link,
      dedupe_key: input.dedupeKey ?? null,
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .execute();
}

function parseParams(raw: string): Record<string, string | number> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" ? (value as Record<string, string | number>) : {};
  } catch {
    return {};
  }
}

/**
 * Warns once per service and expiry date when an active service expires within 3 days. Run when the
 * customer's notifications are read, so no scheduler is needed. Returns how many services it warned about.
 */
export async function ensureExpiryNotifications(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<number> {
  const soon = new Date(now.getTime() + EXPIRY_WARNING_DAYS * 86_400_000).toISOString();
  const candidates = await db
    .selectFrom("hosting_services")
    .select(["id", "name", "expires_at"])
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .where("expires_at", ">", now.toISOString())
    .where("expires_at", "<=", soon)
    .execute();
  if (candidates.length === 0) return 0;
  // Only services not warned about yet: a customer with many expiring services would otherwise write, or
  // try to, for each of them on every page. The keys are made here, as `notify` stores them, because an
  // expiry date written out by SQL differs between SQLite (ISO text) and PostgreSQL (its own format).
  const keyOf = (service: { id: number; expires_at: string }) =>
    `expiring:${service.id}:${service.expires_at}`;
  const warned = new Set<string>();
  const keys = candidates.map(keyOf);
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db
      .selectFrom("notifications")
      .select("dedupe_key")
      .where("dedupe_key", "in", keys.slice(i, i + 500))
      .execute();
    for (const row of rows) if (row.dedupe_key) warned.add(row.dedupe_key);
  }
  const expiring = candidates.filter((service) => !warned.has(keyOf(service)));
  if (expiring.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    for (const service of expiring) {
      await notify(trx, {
        userId,
        kind: "service_expiring",
        params: { service: service.name, expiresAt: service.expires_at },
        link: "/dashboard?tab=services",
        dedupeKey: keyOf(service),
      });
    }
  });
  return expiring.length;
}

export async function listNotifications(db: Db, userId: string, limit = 10) {
  await ensureExpiryNotifications(db, userId);
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
