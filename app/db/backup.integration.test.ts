import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { expect, it } from "vitest";
import { findLedgerDiscrepancies } from "~/domain/coins/coins.server";
import { placeOrder } from "~/domain/orders/orders.server";
import { customerWithCoins, orderInput, productId } from "../../tests/support/money-fixtures";
import { createTestDatabaseUrl, describeEachDatabase } from "../../tests/support/test-database";
import { backupDatabase, restoreDatabase } from "./backup.server";
import { createDatabase, sqliteFilePath } from "./database.server";

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

  // SQLite's online backup starts over whenever another connection writes between two of its steps, so a
  // copy made in small steps never ends while the shop keeps writing faster than it copies (a clean-clone
  // CI run on a loaded machine met it: 30 s and no backup). One step copies under one read snapshot,
  // which in WAL mode holds no writer up.
  if (dialect === "sqlite")
    it("finishes while another connection writes between every step it takes", async () => {
      const writer = new SQLite(sqliteFilePath(app().env.DATABASE_URL));
      const dir = mkdtempSync(path.join(tmpdir(), "hostfront-backup-"));
      let writing = true;
      try {
        writer.exec("create table backup_scratch (id integer primary key, body blob)");
        // Some 3 MB, so that a copy in small steps needs many of them.
        const insert = writer.prepare("insert into backup_scratch (body) values (?)");
        for (let i = 0; i < 48; i++) insert.run(Buffer.alloc(64 * 1024, i));
        // A write that changes a page (an UPDATE to the same value does not make SQLite start over).
        const touch = writer.prepare("insert into backup_scratch (body) values (x'00')");
        const writeEachTurn = () => {
          if (!writing) return;
          touch.run();
          setImmediate(writeEachTurn);
        };
        setImmediate(writeEachTurn);
        const file = path.join(dir, "backup.db");
        const outcome = await Promise.race([
          backupDatabase(app().env.DATABASE_URL, file).then(() => "done" as const),
          new Promise<"still copying">((resolve) =>
            setTimeout(() => resolve("still copying"), 10_000),
          ),
        ]);
        writing = false;
        expect(outcome).toBe("done");
        const copy = new SQLite(file, { readonly: true });
        try {
          const { n } = copy.prepare("select count(*) as n from backup_scratch").get() as {
            n: number;
          };
          expect(n).toBeGreaterThanOrEqual(48);
        } finally {
          copy.close();
        }
      } finally {
        writing = false;
        writer.exec("drop table if exists backup_scratch");
        writer.close();
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
