import { sql } from "kysely";
import type { Db, Tx } from "~/db/transaction";
import { oncePer } from "~/db/once-per";
import { loginAddress } from "~/domain/accounts/login-throttle.server";
import {
  countedUntil,
  FORM_SLOTS,
  FORM_WINDOW_MS,
  formLimitDecision,
  oldestCountedSlot,
  slotLengthOf,
  slotStart,
  type FormLimitDecision,
} from "./request-limits";

/** Ended windows are deleted at most this often per database handle (they are useless once ended). */
const PRUNE_EVERY_MS = 60_000;
const pruneDue = oncePer(PRUNE_EVERY_MS);

/**
 * Counts one post from an address to a form and says whether it is within the limit. The count lives in
 * the database and goes up in one statement (an upsert on the post's slot that returns the new count),
 * so posts arriving at once through several server processes or machines are each counted exactly
 * once, and no more than `limit` of them pass in any window (a minute unless `windowMs` says otherwise;
 * a form is always counted with one window, so each window a caller counts has a form name of its own).
 * The earlier slots, which no longer change, are read only when they can matter (this slot's count
 * alone is not past the first refusal). Given a transaction, the count is part of it: a use-case that
 * counts in the transaction of what it stores, and rolls back when refused, counts only what it stored.
 */
export async function countFormPost(
  db: Db | Tx,
  post: { ip: string; form: string; limit: number; windowMs?: number },
  now = new Date(),
): Promise<FormLimitDecision> {
  const { address, slot, slotMs, hits: current } = await countInSlot(db, post, now);
  const earlier =
    current > post.limit + 1
      ? []
      : await db
          .selectFrom("form_rate_windows")
          .select(["window_start", "hits"])
          .where("ip_address", "=", address)
          .where("form", "=", post.form)
          .where("window_start", ">=", oldestCountedSlot(now, slotMs).toISOString())
          .where("window_start", "<", slot.toISOString())
          .execute();
  // Ended windows are deleted by the worker's housekeeping schedule (app/domain/jobs), not here.
  const counts = Array.from<number>({ length: FORM_SLOTS }).fill(0);
  counts[FORM_SLOTS - 1] = current;
  for (const { window_start, hits } of earlier) {
    const index = FORM_SLOTS - 1 - (slot.getTime() - new Date(window_start).getTime()) / slotMs;
    counts[index] = Number(hits);
  }
  return formLimitDecision(counts, post.limit, now, slotMs);
}

/** What the slot counts are kept under: an address (or a name such as "account") and a form. */
export interface SlotCounter {
  ip: string;
  form: string;
  /** The window the count serves (a minute by default): its slots are a sixth of it. */
  windowMs?: number;
}

/**
 * Counts one event in the slot `now` falls in and returns the slot's count with it: one upsert, so
 * events counted at once through several processes each get their own number (exactly one sees 1).
 * The count countFormPost decides with, and by itself a shared "first of this slot" for anything that
 * must happen once per slot of the clock (staff told of new tickets once per window).
 */
export async function countInSlot(db: Db | Tx, counter: SlotCounter, now = new Date()) {
  const address = loginAddress(counter.ip);
  const slotMs = slotLengthOf(counter.windowMs ?? FORM_WINDOW_MS);
  const slot = slotStart(now, slotMs);
  const row = await db
    .insertInto("form_rate_windows")
    .values({
      // The same form of the address as the login throttle and the security page use.
      ip_address: address,
      form: counter.form,
      window_start: slot.toISOString(),
      counted_until: countedUntil(slot, slotMs).toISOString(),
      hits: 1,
    })
    .onConflict((conflict) =>
      conflict
        .columns(["ip_address", "form", "window_start"])
        .doUpdateSet({ hits: sql<number>`form_rate_windows.hits + 1` }),
    )
    .returning("hits")
    .executeTakeFirstOrThrow();
  return { address, slot, slotMs, hits: Number(row.hits) };
}

/** How many events were counted in the slot starting at `slot` (0 once it is pruned). */
export async function slotCount(db: Db | Tx, counter: SlotCounter, slot: Date): Promise<number> {
  const row = await db
    .selectFrom("form_rate_windows")
    .select("hits")
    .where("ip_address", "=", loginAddress(counter.ip))
    .where("form", "=", counter.form)
    .where("window_start", "=", slot.toISOString())
    .executeTakeFirst();
  return row ? Number(row.hits) : 0;
}

/**
 * Deletes the slots that no post is counted with any more (each row says until when it counts, whatever
 * its window's length), at most once a minute per database handle
 * unless forced (the worker's housekeeping schedule forces it). Returns the rows deleted, or null when it
 * was not time yet.
 */
export async function pruneFormWindows(
  db: Db,
  now = new Date(),
  options: { force?: boolean } = {},
): Promise<number | null> {
  if (!pruneDue(db, now, options.force)) return null;
  const result = await db
    .deleteFrom("form_rate_windows")
    .where("counted_until", "<=", now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
