import { sql, type Kysely, type Transaction } from "kysely";
import { expect } from "vitest";
import type { Database } from "~/db/schema";

/**
 * A race made deterministic, on PostgreSQL: a transaction does `work` (taking its row locks) and stays
 * open until `commit()`. Start the other side after this returns, wait until it waits on those locks
 * (`untilWaitingOnALock`), then commit: the other side reads what was there before and writes after.
 */
export async function heldTransaction(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<unknown>,
): Promise<{ commit: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let worked!: () => void;
  const holding = new Promise<void>((resolve) => (worked = resolve));
  const committed = db.transaction().execute(async (trx) => {
    await work(trx);
    worked();
    await released;
  });
  // The work's own failure ends the wait too, rather than leaving the test hanging.
  await Promise.race([holding, committed]);
  return {
    commit: async () => {
      release();
      await committed;
    },
  };
}

/** Until a statement on this database waits for a lock (PostgreSQL's pg_stat_activity says so). */
export async function untilWaitingOnALock(db: Kysely<Database>): Promise<void> {
  await expect
    .poll(
      async () =>
        Number(
          (
            await sql<{ waiting: string }>`select count(*) as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`.execute(db)
          ).rows[0]!.waiting,
        ),
      { timeout: 5_000 },
    )
    .toBeGreaterThan(0);
}
