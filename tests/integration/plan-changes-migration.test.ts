import { sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0053-plan-changes";
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

describe.each(dialects)("migration 0053 [%s]", (dialect) => {
  it("adds the plan paths, the changes and the plan_change kind, keeping every ledger row, index and trigger", async () => {
    const target = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(target.url);
    const { db } = handle;
    try {
      await migrateTo(db, BEFORE);
      const now = new Date().toISOString();
      await db
        .insertInto("users")
        .values({ id: "u1", name: "U", email: "u@example.com", created_at: now, updated_at: now })
        .execute();
      await sql`
        insert into coin_ledger (user_id, amount_cents, balance_after_cents, kind, reason, created_at)
        values ('u1', 500, 500, 'admin_adjustment', 'before 0053', ${now})
      `.execute(db);
      await db.updateTable("users").set({ coin_balance_cents: 500 }).execute();
      const ledger = await db.selectFrom("coin_ledger").selectAll().execute();
      const hooks = await attached(db, dialect);
      const entry = (kind: string) =>
        db
          .insertInto("coin_ledger")
          .values({
            user_id: "u1",
            amount_cents: -100,
            balance_after_cents: 400,
            kind,
            reason: "Plan change",
            created_at: now,
          })
          .execute();
      await expect(entry("plan_change")).rejects.toThrow(/check/i);

      await migrateTo(db, MIGRATION);
      expect(await db.selectFrom("coin_ledger").selectAll().execute()).toEqual(ledger);
      expect(await attached(db, dialect)).toEqual(hooks);
      await entry("plan_change");
      await expect(entry("gift")).rejects.toThrow(/check/i);

      // A path joins two other products, once; a change's key is unique per customer.
      const product = async (slug: string) =>
        Number(
          (
            await db
              .insertInto("products")
              .values({
                slug,
                type: "samp",
                category: "Game Hosting",
                name: slug,
                price_cents: 250,
                created_at: now,
                updated_at: now,
              })
              .returning("id")
              .executeTakeFirstOrThrow()
          ).id,
        );
      const [small, large] = [await product("small"), await product("large")];
      const path = (from: number, to: number) =>
        db
          .insertInto("product_plan_paths")
          .values({ from_product_id: from, to_product_id: to, created_at: now })
          .execute();
      await path(small, large);
      await expect(path(small, large)).rejects.toThrow();
      await expect(path(small, small)).rejects.toThrow(/check/i);
      const change = (key: string, amount = 100) =>
        db
          .insertInto("plan_changes")
          .values({
            hosting_service_id: 1,
            user_id: "u1",
            from_product_id: small,
            to_product_id: large,
            from_name: "small",
            to_name: "large",
            billing_cycle: "monthly",
            previous_cycle_price_cents: 250,
            new_cycle_price_cents: 450,
            previous_monthly_price_cents: 250,
            new_monthly_price_cents: 450,
            amount_cents: amount,
            direction: "upgrade",
            expires_at: now,
            idempotency_key: key,
            created_at: now,
            updated_at: now,
          })
          .execute();
      await change("key-1");
      await expect(change("key-1")).rejects.toThrow(/unique|duplicate/i);
      await expect(change("key-2", -1)).rejects.toThrow(/check/i);
      // A product that goes takes its paths; the changes keep their names.
      await db.deleteFrom("products").where("id", "=", large).execute();
      expect(await db.selectFrom("product_plan_paths").selectAll().execute()).toEqual([]);
      expect(
        await db.selectFrom("plan_changes").select(["to_product_id", "to_name"]).execute(),
      ).toEqual([{ to_product_id: null, to_name: "large" }]);

      // Down is refused while plan changes are in the ledger, and goes back cleanly once they are gone.
      await expect(migrateTo(db, BEFORE)).rejects.toThrow(/plan changes/);
      await db.deleteFrom("coin_ledger").where("kind", "=", "plan_change").execute();
      await migrateTo(db, BEFORE);
      expect(await db.selectFrom("coin_ledger").selectAll().execute()).toEqual(ledger);
      expect(await attached(db, dialect)).toEqual(hooks);
      await migrateTo(db, MIGRATION);
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
