import { Migrator, sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { MIGRATIONS } from "~/db/migrate.server";
import type { Database } from "~/db/schema";
import { MAX_BALANCE_CENTS } from "~/domain/coins/coins";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0019-coin-limits";
const BEFORE = Object.keys(MIGRATIONS)
  .filter((name) => name < MIGRATION)
  .sort()
  .at(-1)!;

async function migrateTo(db: Kysely<Database>, target: string) {
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
  }).migrateTo(target);
  if (error) throw error;
}

describe.each(dialects)("migration 0019 [%s]", (dialect) => {
  it("keeps the ledger, adds the key and the balance's ceiling, and goes down again", async () => {
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
      await db
        .insertInto("coin_ledger")
        .values({
          user_id: "u1",
          amount_cents: 500,
          balance_after_cents: 500,
          kind: "admin_adjustment",
          created_at: now,
        })
        .execute();
      await db.updateTable("users").set({ coin_balance_cents: 500 }).execute();

      await migrateTo(db, MIGRATION);
      const rows = await db.selectFrom("coin_ledger").selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ amount_cents: 500, idempotency_key: null });
      // Many rows without a key; one row per key.
      const insert = (idempotency_key: string | null) =>
        sql`insert into coin_ledger (user_id, amount_cents, balance_after_cents, kind, created_at, idempotency_key)
            values ('u1', 1, 501, 'admin_adjustment', ${now}, ${idempotency_key})`.execute(db);
      await insert(null);
      await insert("key-0123456789abcdef");
      await expect(insert("key-0123456789abcdef")).rejects.toThrow(/unique|duplicate/i);
      const raise = (cents: number) =>
        db.updateTable("users").set({ coin_balance_cents: cents }).where("id", "=", "u1").execute();
      await raise(MAX_BALANCE_CENTS);
      await expect(raise(MAX_BALANCE_CENTS + 1)).rejects.toThrow(/users_coin_balance_max/);
      await expect(
        db
          .insertInto("users")
          .values({
            id: "u2",
            name: "U2",
            email: "u2@example.com",
            coin_balance_cents: MAX_BALANCE_CENTS + 1,
            created_at: now,
            updated_at: now,
          })
          .execute(),
      ).rejects.toThrow(/users_coin_balance_max/);

      await migrateTo(db, BEFORE);
      await raise(MAX_BALANCE_CENTS + 1);
      await raise(500);
      const columns = (await db.introspection.getTables()).find(
        (t) => t.name === "coin_ledger",
      )!.columns;
      expect(columns.map((c) => c.name)).not.toContain("idempotency_key");
      await migrateTo(db, MIGRATION);
      await expect(raise(MAX_BALANCE_CENTS + 1)).rejects.toThrow(/users_coin_balance_max/);
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
