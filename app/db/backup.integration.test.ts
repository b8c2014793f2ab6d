import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { findLedgerDiscrepancies } from "~/domain/coins/coins.server";
import { placeOrder } from "~/domain/orders/orders.server";
import { customerWithCoins, orderInput, productId } from "../../tests/support/money-fixtures";
import { createTestDatabaseUrl, describeEachDatabase } from "../../tests/support/test-database";
import { backupDatabase, restoreDatabase } from "./backup.server";
import { createDatabase } from "./database.server";

describeEachDatabase("backup and restore", (app, dialect) => {
  it("backs up during writes and restores every row with a clean ledger", async () => {
    const services = app();
    const user = await customerWithCoins(services, 1_000_000);
    const product = await productId(services, "samp-starter");
    for (let i = 0; i < 10; i++)
      await placeOrder(services.db, user, orderInput({ productId: product }));
    const before = await services.db.selectFrom("orders").select("id").orderBy("id").execute();

    const dir = mkdtempSync(path.join(tmpdir(), "hostfront-backup-"));
    const file = path.join(dir, dialect === "postgres" ? "backup.dump" : "backup.db");
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await placeOrder(services.db, user, orderInput({ productId: product }));
        // better-sqlite3 answers synchronously: give the backup's own steps a turn of the event loop.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      await backupDatabase(services.env.DATABASE_URL, file);
    } finally {
      writing = false;
      await writer;
    }

    const target = await createTestDatabaseUrl(dialect);
    try {
      await restoreDatabase(target.url, file);
      const restored = createDatabase(target.url);
      try {
        const orders = await restored.db.selectFrom("orders").select("id").orderBy("id").execute();
        const ids = new Set(orders.map((o) => o.id));
        for (const order of before) expect(ids.has(order.id)).toBe(true);
        expect(await findLedgerDiscrepancies(restored.db)).toEqual([]);
        const users = await restored.db.selectFrom("users").select("id").execute();
        expect(users.length).toBeGreaterThan(1);
      } finally {
        await restored.destroy();
      }
    } finally {
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a file that is not a backup, changing nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hostfront-backup-"));
    try {
      await expect(
        restoreDatabase(app().env.DATABASE_URL, path.join(dir, "missing.db")),
      ).rejects.toThrow(/No backup file/);
      const users = await app().db.selectFrom("users").select("id").execute();
      expect(users.length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
