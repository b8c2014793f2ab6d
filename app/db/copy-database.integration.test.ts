import { sql, type Kysely } from "kysely";
import { expect, it } from "vitest";
import { findLedgerDiscrepancies } from "~/domain/coins/coins.server";
import { placeOrder } from "~/domain/orders/orders.server";
import { markTopUpPaid, requestTopUp } from "~/domain/payments/top-up-requests.server";
import { prepareTicketFiles } from "~/domain/tickets/ticket-files.server";
import { openTicket } from "~/domain/tickets/tickets.server";
import { pdfProof, pngProof } from "../../tests/support/proof-files";
import {
  approvedOrder,
  customerWithCoins,
  orderInput,
  productId,
} from "../../tests/support/money-fixtures";
import { describe } from "vitest";
import { readRow } from "../../tests/support/read-column";
import { createTestDatabaseUrl, dialects } from "../../tests/support/test-database";
import { createServices, prepareDatabase } from "~/context.server";
import { testEnv } from "../../tests/support/test-database";
import { copyDatabase, TABLES_IN_ORDER, TABLES_NOT_COPIED } from "./copy-database.server";
import { createDatabase, type DatabaseHandle } from "./database.server";
import { migrateToLatest } from "./migrate.server";
import type { Database } from "./schema";

/**
 * Every table the migrations made in this database, read from the database itself, not from our types.
 * On SQLite a virtual table (an FTS5 search index) counts as a table; its shadow tables are its own
 * storage, made and dropped with it, so they are not named apart.
 */
async function tablesOf(handle: DatabaseHandle): Promise<string[]> {
  const rows =
    handle.dialect === "postgres"
      ? await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(handle.db)
      : await sql<{ name: string }>`
          select name from pragma_table_list
          where schema = 'main' and type in ('table', 'virtual')
            and substr(name, 1, 7) <> 'sqlite_'`.execute(handle.db);
  // Kysely's own bookkeeping of the migrations: the target's migrations write it themselves.
  const kysely = ["kysely_migration", "kysely_migration_lock"];
  return rows.rows.map((row) => row.name).filter((name) => !kysely.includes(name));
}

/** A table's rows, whole, in the order of its key: what a copy must carry over unchanged. */
function rowsOf(db: Kysely<Database>, table: keyof Database, keys: string[]) {
  // Kysely cannot follow a table named by a variable; the table is checked by the signature.
  let query = (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
    .selectFrom(table)
    .selectAll();
  for (const key of keys) query = query.orderBy(key);
  return query.execute();
}

describe.each(dialects)("the copy's list of tables [%s]", (dialect) => {
  // A table a later migration adds is copied only once it is named here: a move must not drop it unseen.
  it("names every table the migrations make, once, as copied or as left out", async () => {
    const database = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(database.url);
    try {
      await migrateToLatest(handle.db);
      const tables = await tablesOf(handle);
      expect(tables.length).toBeGreaterThan(50);
      const notCopied = Object.keys(TABLES_NOT_COPIED);
      const listed: string[] = [...TABLES_IN_ORDER, ...notCopied];
      expect(listed.filter((table, i) => listed.indexOf(table) !== i)).toEqual([]);
      // Each table the migrations made is copied or left out for a reason written down.
      expect(tables.filter((table) => !listed.includes(table)).sort()).toEqual([]);
      // And the copy names no table that is not there.
      expect(TABLES_IN_ORDER.filter((table) => !tables.includes(table))).toEqual([]);
      // SQLite has every table (PostgreSQL lacks its search indexes, which it does without).
      if (dialect === "sqlite")
        expect(notCopied.filter((table) => !tables.includes(table))).toEqual([]);
    } finally {
      await handle.destroy();
      await database.drop();
    }
  });
});

describe("moving from SQLite to PostgreSQL", () => {
  it("copies every row, keeps the ledger right and lets PostgreSQL go on from the copied ids", async () => {
    const source = await createTestDatabaseUrl("sqlite");
    const target = await createTestDatabaseUrl("postgres");
    const app = createServices(testEnv(source.url));
    try {
      await prepareDatabase(app);
      const user = await customerWithCoins(app, 10_000);
      const { placed, approved } = await approvedOrder(app, user, {
        productId: await productId(app, "mta-pro"),
      });
      // The times the rows below are written with: ISO text, as the code writes it and PostgreSQL reads it back.
      const at = "2026-11-20T10:00:00.000Z";
      const now = new Date(at);
      // A ticket with a screenshot: the file's bytes move with its message.
      const screenshot = await prepareTicketFiles(app.db, {
        uploaderId: user,
        uploads: [await pngProof("screen.png", { colour: "#16a34a" })],
        limited: false,
        now,
      });
      if (!screenshot.ok) throw new Error(screenshot.kind);
      await openTicket(
        app.db,
        {
          userId: user,
          department: "billing",
          subject: "Hi",
          priority: "low",
          message: "m",
          files: screenshot.files,
        },
        { now },
      );
      // A top-up request with its proof file: the bytes move with it.
      const cashPlus = await readRow(app.db, "payment_methods", ["id"], { code: "cashplus" });
      await app.db
        .updateTable("payment_methods")
        .set({ enabled: 1, instructions: JSON.stringify({ en: "Pay", fr: "", ar: "" }) })
        .where("id", "=", cashPlus.id)
        .execute();
      const asked = await requestTopUp(app.db, {
        userId: user,
        methodId: Number(cashPlus.id),
        coins: 10,
      });
      if (!asked.ok) throw new Error(asked.error);
      const paid = await markTopUpPaid(app.db, {
        userId: user,
        requestId: asked.request.id,
        payerAccount: "0600",
        paidOn: new Date().toISOString().slice(0, 10),
        proofs: [await pngProof(), pdfProof()],
      });
      if (!paid.ok) throw new Error(paid.error);
      // A row in tables later migrations added, one of each kind the copy treats apart: a composite key
      // (plan paths), a key that is not an id (a service's status, a provider), an archive's bytes, and
      // plain ids whose PostgreSQL sequences move on (a change of plan, a cancellation).
      const serviceId = approved.hostingServiceId!;
      const starter = await productId(app, "mta-starter");
      const pro = await productId(app, "mta-pro");
      await app.db
        .insertInto("product_plan_paths")
        .values([
          { from_product_id: starter, to_product_id: pro, created_at: at },
          { from_product_id: pro, to_product_id: starter, created_at: at },
        ])
        .execute();
      const planChange = {
        hosting_service_id: serviceId,
        user_id: user,
        from_product_id: pro,
        to_product_id: starter,
        from_name: "MTA Pro",
        to_name: "MTA Starter",
        billing_cycle: "monthly",
        previous_cycle_price_cents: 1500,
        new_cycle_price_cents: 500,
        previous_monthly_price_cents: 1500,
        new_monthly_price_cents: 500,
        amount_cents: 400,
        direction: "downgrade",
        expires_at: at,
        idempotency_key: "plan-change-before-the-move",
        created_at: at,
        updated_at: at,
      };
      const changed = await app.db
        .insertInto("plan_changes")
        .values(planChange)
        .returning("id")
        .executeTakeFirstOrThrow();
      await app.db
        .insertInto("service_cancellations")
        .values({
          hosting_service_id: serviceId,
          user_id: user,
          kind: "end_of_term",
          reason: "notUsing",
          reason_text: "Done with it",
          state: "scheduled",
          auto_renew_before: 1,
          ends_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await app.db
        .insertInto("server_status")
        .values({
          hosting_service_id: serviceId,
          state: "offline",
          read_at: at,
          offline_since: at,
          offline_notified_at: at,
          updated_at: at,
        })
        .execute();
      await app.db
        .insertInto("payment_providers")
        .values({
          provider: "paypal",
          api_url: "https://api-m.sandbox.paypal.com",
          public_id: "client-id",
          updated_at: at,
        })
        .execute();
      const archive = Buffer.from((await pngProof("archive.png", { colour: "#f59e0b" })).bytes);
      await app.db
        .insertInto("data_exports")
        .values({
          user_id: user,
          state: "ready",
          size_bytes: archive.length,
          token_hash: "ab".repeat(32),
          asked_at: at,
          ready_at: at,
          expires_at: at,
          archive,
        })
        .execute();

      const to = createDatabase(target.url);
      try {
        const counts = await copyDatabase(app.database, to);
        for (const table of TABLES_IN_ORDER) {
          const n = await app.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow();
          expect(counts[table], table).toBe(Number(n.n));
        }
        expect(await findLedgerDiscrepancies(to.db)).toEqual([]);
        const proofs = (db: typeof app.db) =>
          db
            .selectFrom("top_up_proofs")
            .select(["id", "content_type", "bytes", "sha256"])
            .orderBy("id")
            .execute();
        const copied = await proofs(to.db);
        expect(copied).toHaveLength(2);
        for (const [i, row] of (await proofs(app.db)).entries()) {
          expect(copied[i]).toMatchObject({ id: row.id, content_type: row.content_type });
          expect(Buffer.from(copied[i]!.bytes).equals(Buffer.from(row.bytes))).toBe(true);
        }
        // The newer tables' rows, whole, with their files' bytes; canned_replies holds the seeded replies.
        const newer: [keyof Database, string[]][] = [
          ["ticket_files", ["id"]],
          ["product_plan_paths", ["from_product_id", "to_product_id"]],
          ["plan_changes", ["id"]],
          ["service_cancellations", ["id"]],
          ["server_status", ["hosting_service_id"]],
          ["payment_providers", ["provider"]],
          ["data_exports", ["id"]],
          ["canned_replies", ["id"]],
        ];
        for (const [table, keys] of newer) {
          const before = await rowsOf(app.db, table, keys);
          expect(before.length, table).toBeGreaterThan(0);
          expect(await rowsOf(to.db, table, keys), table).toEqual(before);
        }
        const [file] = await rowsOf(to.db, "ticket_files", ["id"]);
        expect(Buffer.isBuffer(file!.bytes) && file!.bytes.length > 0).toBe(true);
        // The site's own settings, not those the target's migrations wrote (0028's lifecycle switch).
        const settings = (db: typeof app.db) =>
          db.selectFrom("settings").select(["key", "value"]).orderBy("key").execute();
        expect(await settings(to.db)).toEqual(await settings(app.db));
        await expect(copyDatabase(app.database, to)).rejects.toThrow(/not empty/);

        const moved = createServices(testEnv(target.url));
        try {
          // New rows on PostgreSQL get ids after the copied ones.
          const next = await placeOrder(
            moved.db,
            user,
            orderInput({ productId: await productId(moved, "mta-pro") }),
          );
          expect(next.ok && next.order.id > placed.id).toBe(true);
          // So do the newer tables' (a change of plan, here).
          const change = await moved.db
            .insertInto("plan_changes")
            .values({ ...planChange, idempotency_key: "plan-change-after-the-move" })
            .returning("id")
            .executeTakeFirstOrThrow();
          expect(change.id).toBeGreaterThan(changed.id);
        } finally {
          await moved.database.destroy();
        }
      } finally {
        await to.destroy();
      }
    } finally {
      await app.database.destroy();
      await source.drop();
      await target.drop();
    }
  });
});
