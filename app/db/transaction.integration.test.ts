import { sql } from "kysely";
import { expect, it } from "vitest";
import { createTestDatabaseUrl } from "../../tests/support/test-database";
import { createDatabase } from "./database.server";
import { inTransaction, isRetryableConflict } from "./transaction";

// Two transactions that lock two rows in opposite orders: PostgreSQL ends one of them (40P01), and
// inTransaction runs it again, so both finish and each one's writes are there once.
it("runs a transaction PostgreSQL ended to break a deadlock again, once, and both finish [postgres]", async () => {
  const database = await createTestDatabaseUrl("postgres");
  const handle = createDatabase(database.url);
  const db = handle.db;
  try {
    await sql`create table deadlock_probe (id integer primary key, n integer not null)`.execute(db);
    await sql`insert into deadlock_probe (id, n) values (1, 0), (2, 0)`.execute(db);
    let attempts = 0;
    let bothHoldTheirFirst: () => void = () => {};
    let holding = 0;
    const first = new Promise<void>((resolve) => (bothHoldTheirFirst = resolve));
    const bump = (a: number, b: number) =>
      inTransaction(db, async (trx) => {
        attempts++;
        await sql`update deadlock_probe set n = n + 1 where id = ${a}`.execute(trx);
        if (++holding === 2) bothHoldTheirFirst();
        // Each waits (the first time) until the other holds its first row: then they cross. The one
        // PostgreSQL ends runs again with `first` already settled, so it waits for nothing then.
        await first;
        await sql`update deadlock_probe set n = n + 10 where id = ${b}`.execute(trx);
        return a;
      });
    expect((await Promise.all([bump(1, 2), bump(2, 1)])).sort()).toEqual([1, 2]);
    // One of them was ended by PostgreSQL and ran again: three attempts, and every write is there once.
    expect(attempts).toBe(3);
    const rows = await sql<{
      id: number;
      n: number;
    }>`select id, n from deadlock_probe order by id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 1, n: 11 },
      { id: 2, n: 11 },
    ]);
  } finally {
    await handle.destroy();
    await database.drop();
  }
});

it("retries only what PostgreSQL ended to let another transaction go on", () => {
  expect(isRetryableConflict({ code: "40P01" })).toBe(true);
  expect(isRetryableConflict({ code: "40001" })).toBe(true);
  expect(isRetryableConflict({ code: "23505" })).toBe(false);
  expect(isRetryableConflict(new Error("boom"))).toBe(false);
  expect(isRetryableConflict(null)).toBe(false);
});
