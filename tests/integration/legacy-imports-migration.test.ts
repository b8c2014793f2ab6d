import { sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { findLedgerDiscrepancies } from "~/domain/coins/coins.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0012-legacy-imports";

/** Runs the real migrations up to `target`: just before 0012 first, so it meets a ledger that has rows. */

const BEFORE = migrationBefore(MIGRATION);

async function ledgerIndexes(db: Kysely<Database>, dialect: string): Promise<string[]> {
  const rows =
    dialect === "sqlite"
      ? await sql<{ name: string }>`
          select name from sqlite_master where type = 'index' and tbl_name = 'coin_ledger'
            and sql is not null`.execute(db)
      : await sql<{ name: string }>`
          select indexname as name from pg_indexes where tablename = 'coin_ledger'
            and indexname like 'coin_ledger_%_idx'`.execute(db);
  return rows.rows.map((r) => r.name).sort();
}

describe.each(dialects)("migration 0012 [%s]", (dialect) => {
  it("adds the legacy_import ledger kind and keeps every ledger row, id and index", async () => {
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
      for (const [amount, after] of [
        [500, 500],
        [-200, 300],
      ] as const) {
        await db
          .insertInto("coin_ledger")
          .values({
            user_id: "u1",
            amount_cents: amount,
            balance_after_cents: after,
            kind: amount > 0 ? "admin_adjustment" : "order_payment",
            reason: "before 0012",
            created_at: now,
          })
          .execute();
      }
      await db.updateTable("users").set({ coin_balance_cents: 300 }).execute();
      const before = await db.selectFrom("coin_ledger").selectAll().orderBy("id").execute();
      const indexes = await ledgerIndexes(db, dialect);

      await migrateTo(db, MIGRATION);

      expect(await db.selectFrom("coin_ledger").selectAll().orderBy("id").execute()).toEqual(
        before,
      );
      expect(await ledgerIndexes(db, dialect)).toEqual(indexes);
      expect(indexes).toEqual(
        expect.arrayContaining([
          "coin_ledger_user_idx",
          "coin_ledger_created_idx",
          "coin_ledger_kind_idx",
        ]),
      );
      const insert = (kind: string) =>
        db
          .insertInto("coin_ledger")
          .values({
            user_id: "u1",
            amount_cents: 100,
            balance_after_cents: 400,
            kind,
            created_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
      // New rows go on after the copied ids, and the check still refuses an unknown kind.
      const added = await insert("legacy_import");
      expect(added.id).toBeGreaterThan(before[before.length - 1]!.id);
      await expect(insert("gift")).rejects.toThrow(/check/i);
      await db.updateTable("users").set({ coin_balance_cents: 400 }).execute();
      expect(await findLedgerDiscrepancies(db)).toEqual([]);
      // The user's foreign key still holds on the rebuilt table.
      await expect(
        db
          .insertInto("coin_ledger")
          .values({
            user_id: "nobody",
            amount_cents: 1,
            balance_after_cents: 1,
            kind: "renewal",
            created_at: now,
          })
          .execute(),
      ).rejects.toThrow(/foreign key/i);
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
