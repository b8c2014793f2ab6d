import type { Db } from "~/db/transaction";
import { THROTTLE_LOOKBACK_HOURS, type RateLimitRefusal } from "./login-throttle";
import { loginAddress } from "./login-throttle.server";

// What the per-address form limit refused (server/request-limits.ts), for the security page's list.

/** Form-limit refusals: at most one row per address and minute, kept 7 days and never more than this. */
export const RATE_LIMIT_REFUSAL_RETENTION_DAYS = 7;
export const RATE_LIMIT_REFUSAL_MAX_ROWS = 5000;

/** The addresses the form limit refused in the last 24 hours, newest first. */
export async function listRateLimitRefusals(
  db: Db,
  options: { limit: number; now?: Date },
): Promise<RateLimitRefusal[]> {
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - THROTTLE_LOOKBACK_HOURS * 3_600_000).toISOString();
  const rows = await db
    .selectFrom("rate_limit_refusals")
    .select(["id", "ip_address", "path", "created_at", "ends_at"])
    .where("created_at", ">", since)
    .orderBy("id", "desc")
    .limit(options.limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    address: row.ip_address,
    path: row.path,
    at: row.created_at,
    endsAt: row.ends_at,
    active: Date.parse(row.ends_at) > now.getTime(),
  }));
}

/** The forms the per-address limit covers (server/request-limits.ts); anything else is stored as "other". */
export const RATE_LIMITED_PATHS = [
  "/login",
  "/register",
  "/contact",
  "/newsletter",
  "/language",
  "/logout",
  "/forgot-password",
  "/reset-password",
] as const;

/**
 * Records that the form limit refused an address. server/request-limits.ts calls it only for the first
 * refusal of an address and form in a window, so an address adds at most one row per form a minute
 * (across every server process: the count is in the database). The worker's housekeeping schedule
 * keeps the table small (pruneRateLimitRefusals).
 */
export async function recordRateLimitRefusal(
  db: Db,
  refusal: { ip: string; path: string; endsAt: Date },
  now = new Date(),
) {
  const path = (RATE_LIMITED_PATHS as readonly string[]).includes(refusal.path)
    ? refusal.path
    : "other";
  await db
    .insertInto("rate_limit_refusals")
    .values({
      ip_address: loginAddress(refusal.ip),
      path,
      created_at: now.toISOString(),
      ends_at: refusal.endsAt.toISOString(),
    })
    .execute();
}

/**
 * Deletes the form-limit refusals past the retention and beyond the newest RATE_LIMIT_REFUSAL_MAX_ROWS,
 * so the table stays small whatever the traffic (the worker's housekeeping schedule runs it). Returns
 * the rows deleted.
 */
export async function pruneRateLimitRefusals(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(
    now.getTime() - RATE_LIMIT_REFUSAL_RETENTION_DAYS * 86_400_000,
  ).toISOString();
  // The newest row past the cap, found through the primary key; it and everything older goes.
  const boundary = await db
    .selectFrom("rate_limit_refusals")
    .select("id")
    .orderBy("id", "desc")
    .limit(1)
    .offset(RATE_LIMIT_REFUSAL_MAX_ROWS)
    .executeTakeFirst();
  const result = await db
    .deleteFrom("rate_limit_refusals")
    .where((eb) =>
      eb.or([
        eb("created_at", "<", cutoff),
        ...(boundary ? [eb("id", "<=", Number(boundary.id))] : []),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
