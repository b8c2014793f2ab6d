import { sql } from "kysely";
import type { Db } from "~/db/transaction";
import { logger } from "~/lib/logger.server";
import { loginAddress } from "~/domain/accounts/login-throttle.server";
import { formLimitDecision, windowStart, type FormLimitDecision } from "./request-limits";

/** Ended windows are deleted at most this often per database handle (they are useless once ended). */
const PRUNE_EVERY_MS = 60_000;
const lastPruned = new WeakMap<Db, number>();

/**
 * Counts one post from an address to a form and says whether it is within the limit. The count lives in
 * the database and goes up in one statement (an upsert that returns the new count), so posts arriving
 * at once through several server processes or machines are each counted exactly once, and no more than
 * `limit` of them pass in a window.
 */
export async function countFormPost(
  db: Db,
  post: { ip: string; form: string; limit: number },
  now = new Date(),
): Promise<FormLimitDecision> {
  const row = await db
    .insertInto("form_rate_windows")
    .values({
      // The same form of the address as the login throttle and the security page use.
      ip_address: loginAddress(post.ip),
      form: post.form,
      window_start: windowStart(now).toISOString(),
      hits: 1,
    })
    .onConflict((conflict) =>
      conflict
        .columns(["ip_address", "form", "window_start"])
        .doUpdateSet({ hits: sql<number>`form_rate_windows.hits + 1` }),
    )
    .returning("hits")
    .executeTakeFirstOrThrow();
  try {
    await pruneFormWindows(db, now);
  } catch (error) {
    // Housekeeping: a failure must not turn a form post into an error.
    logger.warn({ err: error }, "pruning form-limit windows failed");
  }
  return formLimitDecision(Number(row.hits), post.limit, now);
}

/**
 * Deletes the windows that ended before the current one, at most once a minute per database handle
 * (called after each count, so an idle site does no work). Returns the rows deleted, or null when it was
 * not time yet.
 */
export async function pruneFormWindows(
  db: Db,
  now = new Date(),
  options: { force?: boolean } = {},
): Promise<number | null> {
  const last = lastPruned.get(db) ?? 0;
  if (!options.force && now.getTime() - last < PRUNE_EVERY_MS) return null;
  lastPruned.set(db, now.getTime());
  const result = await db
    .deleteFrom("form_rate_windows")
    .where("window_start", "<", windowStart(now).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
