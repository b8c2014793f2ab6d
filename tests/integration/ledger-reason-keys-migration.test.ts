import { sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { findLedgerDiscrepancies } from "~/domain/coins/coins.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0023-ledger-reason-keys";

const BEFORE = migrationBefore(MIGRATION);

/** The indexes and triggers on coin_ledger, by name. */
async function attached(db: Kysely<Database>, dialect: string): Promise<string[]> {
  const rows =
    dialect === "sqlite"
      ? await sql<{ name: string }>`
          select type || ':' || name as name from sqlite_master
          where type in ('index', 'trigger') and tbl_name = 'coin_ledger' and sql is not null`.execute(
          db,
        )
      : await sql<{ name: string }>`
          select 'index:' || indexname as name from pg_indexes where tablename = 'coin_ledger'
          union all
          select 'trigger:' || tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid
          where c.relname = 'coin_ledger' and not t.tgisinternal`.execute(db);
  return rows.rows.map((r) => r.name).sort();
}

describe.each(dialects)("migration 0023 [%s]", (dialect) => {
  it("adds the reason's message columns and the coin_purchase kind, keeping every row, index and trigger", async () => {
    const target = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(target.url);
    const { db } = handle;
    try {
      await migrateTo(db, BEFORE);
      const now = new Date().toISOString();
      const earlier = "2024-06-01T10:00:00.000Z";
      await db
        .insertInto("users")
        .values({ id: "u1", name: "U", email: "u@example.com", created_at: now, updated_at: now })
        .execute();
      let balance = 0;
      for (const [amount, kind, at] of [
        [500, "admin_adjustment", earlier],
        [-200, "order_payment", earlier],
        [300, "legacy_import", now],
      ] as const) {
        balance += amount;
        await sql`
          insert into coin_ledger (user_id, amount_cents, balance_after_cents, kind, reason, created_at)
          values ('u1', ${amount}, ${balance}, ${kind}, ${`before 0023: ${kind}`}, ${at})
        `.execute(db);
      }
      await db.updateTable("users").set({ coin_balance_cents: balance }).execute();
      // A summed day, as the transactions page leaves it.
      await db.insertInto("ledger_days").values({ day: "2024-06-01", summed_at: now }).execute();
      const before = await db.selectFrom("coin_ledger").selectAll().orderBy("id").execute();
      const hooks = await attached(db, dialect);
      expect(hooks.filter((name) => name.startsWith("trigger:")).length).toBeGreaterThan(0);

      await migrateTo(db, MIGRATION);

      const after = await db.selectFrom("coin_ledger").selectAll().orderBy("id").execute();
      expect(after).toEqual(
        before.map((row) => ({ ...row, reason_key: null, reason_params: null })),
      );
      expect(await attached(db, dialect)).toEqual(hooks);
      // Rebuilding the table forgot no summed day (no trigger fired)...
      expect(await db.selectFrom("ledger_days").select("day").execute()).toEqual([
        { day: "2024-06-01" },
      ]);

      const insert = (kind: string, at = now) =>
        db
          .insertInto("coin_ledger")
          .values({
            user_id: "u1",
            amount_cents: 100,
            balance_after_cents: balance + 100,
            kind,
            reason: "Ticket #1: Coins",
            reason_key: "ticketPurchase",
            reason_params: JSON.stringify({ id: 1, subject: "Coins" }),
            created_at: at,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
      // ...and the triggers still work: an entry written into a summed day makes it be summed again.
      const added = await insert("coin_purchase", "2024-06-01T12:00:00.000Z");
      expect(added.id).toBeGreaterThan(before.at(-1)!.id);
      expect(await db.selectFrom("ledger_days").select("day").execute()).toEqual([]);
      await expect(insert("gift")).rejects.toThrow(/check/i);
      await db
        .updateTable("users")
        .set({ coin_balance_cents: balance + 100 })
        .execute();
      expect(await findLedgerDiscrepancies(db)).toEqual([]);
      await expect(
        db
          .insertInto("coin_ledger")
          .values({
            user_id: "nobody",
            amount_cents: 1,
            balance_after_cents: 1,
            kind: "coin_purchase",
            created_at: now,
          })
          .execute(),
      ).rejects.toThrow(/foreign key/i);

      // Down is refused while coin purchases exist, and goes back cleanly once they are gone.
      await expect(migrateTo(db, BEFORE)).rejects.toThrow(/coin purchases/);
      await db.deleteFrom("coin_ledger").where("kind", "=", "coin_purchase").execute();
      await migrateTo(db, BEFORE);
      expect(await db.selectFrom("coin_ledger").selectAll().orderBy("id").execute()).toEqual(
        before,
      );
      expect(await attached(db, dialect)).toEqual(hooks);
      await migrateTo(db, MIGRATION);
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
