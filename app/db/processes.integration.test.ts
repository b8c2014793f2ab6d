import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices, prepareDatabase, type AppServices } from "~/context.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { sqliteFilePath } from "./database.server";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  expectLedgerIntact,
} from "../../tests/support/money-fixtures";
import { isEarlier, raceChildren, startSignalledChild } from "../../tests/support/process-moments";
import { readRow } from "../../tests/support/read-column";
import { createPreparedTestDatabase, testEnv } from "../../tests/support/test-database";

/** tests/support/coin-writer.ts as a separate process (a server process of its own). */
function coinWriter(args: string[]) {
  return startSignalledChild("tests/support/coin-writer.ts", args);
}

// Several server processes (WEB_CONCURRENCY) share one SQLite file. A transaction that reads a balance and
// then writes must wait for the other process's transaction, not fail (BEGIN IMMEDIATE, busy_timeout).
describe("two processes writing one SQLite database", () => {
  let services: AppServices;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createPreparedTestDatabase("sqlite");
    drop = database.drop;
    services = createServices(testEnv(database.url));
    await prepareDatabase(services);
  });
  afterAll(async () => {
    await services.database.destroy();
    await drop();
  });

  it("credits the same customer from both at once with no error and every cent in the ledger", async () => {
    const url = services.env.DATABASE_URL;
    const userId = await customerWithCoins(services, 0);
    const actorId = await adminId(services);
    // Both start together once both are ready, and make 100 credits each.
    const writers = await raceChildren([0, 1].map(() => coinWriter([url, userId, actorId, "100"])));
    for (const writer of writers) expect(writer.err).toBe("");
    expect(writers.map((writer) => writer.code)).toEqual([0, 0]);
    // They wrote side by side: each began before the other had finished, so neither waited the
    // other out.
    const [a, b] = writers.map(
      (writer) => JSON.parse(writer.out) as { first: string; last: string },
    );
    expect(isEarlier(a!.first, b!.last) && isEarlier(b!.first, a!.last)).toBe(true);
    expect(await balanceOf(services, userId)).toBe(200);
    await expectLedgerIntact(services);
  }, 30_000);

  it("waits for another process's write lock without holding up reads or the event loop", async () => {
    const userId = await customerWithCoins(services, 0);
    const actorId = await adminId(services);
    // Another process, as SQLite sees it: a connection of its own that takes the write lock and keeps it.
    const other = new SQLite(sqliteFilePath(services.env.DATABASE_URL));
    try {
      other.exec("begin immediate");
      const waits = services.database.writeLockWaits();
      let settled = false;
      const credit = adjustCoins(services.db, {
        userId,
        amountCents: 500,
        reason: "waits its turn",
        actorId,
      }).finally(() => (settled = true));
      const write = services.db
        .updateTable("users")
        .set({ name: "Renamed while locked" })
        .where("id", "=", userId)
        .execute();

      // SQLite's own busy handler would sleep on this thread until the lock came free (up to 5 s): no
      // timer, no read, no request of this process would run meanwhile. The credit is seen waiting on a
      // timer instead (a busy answer, counted), and a read of this process answers while it waits.
      await expect.poll(() => services.database.writeLockWaits()).toBeGreaterThan(waits);
      const reading = await readRow(services.db, "users", ["coin_balance_cents"], { id: userId });
      expect(reading.coin_balance_cents).toBe(0);
      expect(settled).toBe(false);
      expect(other.inTransaction).toBe(true);

      other.exec("commit");
      const result = await credit;
      expect(result.ok).toBe(true);
      await write;
      const user = await readRow(services.db, "users", ["coin_balance_cents", "name"], {
        id: userId,
      });
      expect(user).toEqual({ coin_balance_cents: 500, name: "Renamed while locked" });
      await expectLedgerIntact(services);
    } finally {
      if (other.inTransaction) other.exec("rollback");
      other.close();
    }
  });
});
