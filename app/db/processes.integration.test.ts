import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
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
import { readRow } from "../../tests/support/read-column";
import { createTestDatabaseUrl, testEnv } from "../../tests/support/test-database";

/** Runs tests/support/coin-writer.ts as a separate process; resolves with its exit code and output. */
function coinWriter(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn("node", ["--import", "tsx", "tests/support/coin-writer.ts", ...args]);
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

// Several server processes (WEB_CONCURRENCY) share one SQLite file. A transaction that reads a balance and
// then writes must wait for the other process's transaction, not fail (BEGIN IMMEDIATE, busy_timeout).
describe("two processes writing one SQLite database", () => {
  let services: AppServices;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabaseUrl("sqlite");
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
    // Both start at the same moment, after their few seconds of start-up, and write for two seconds.
    const start = String(Date.now() + 6000);
    const writers = await Promise.all(
      [0, 1].map(() => coinWriter([url, userId, actorId, start, "2000"])),
    );
    for (const writer of writers) expect(writer.err).toBe("");
    expect(writers.map((writer) => writer.code)).toEqual([0, 0]);
    const credits = writers.map((writer) => Number(writer.out.trim()));
    for (const count of credits) expect(count).toBeGreaterThan(10);
    expect(await balanceOf(services, userId)).toBe(credits[0]! + credits[1]!);
    await expectLedgerIntact(services);
  }, 30_000);

  it("waits for another process's write lock without holding up reads or the event loop", async () => {
    const userId = await customerWithCoins(services, 0);
    const actorId = await adminId(services);
    // Another process, as SQLite sees it: a connection of its own that takes the write lock and keeps it.
    const other = new SQLite(sqliteFilePath(services.env.DATABASE_URL));
    try {
      other.exec("begin immediate");
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
      // timer, no read, no request of this process would run meanwhile.
      const before = performance.now();
      await sleep(20);
      expect(performance.now() - before).toBeLessThan(1000);
      const reading = await readRow(services.db, "users", ["coin_balance_cents"], { id: userId });
      expect(reading.coin_balance_cents).toBe(0);
      await sleep(100);
      expect(settled).toBe(false);

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
