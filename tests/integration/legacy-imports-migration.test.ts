import { Migrator, sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import * as m0001 from "../../db/migrations/0001-accounts-and-settings";
import * as m0002 from "../../db/migrations/0002-catalogue";
import * as m0004 from "../../db/migrations/0004-coins-orders-services";
import * as m0005 from "../../db/migrations/0005-support";
import * as m0007 from "../../db/migrations/0007-site-messages";
import { createDatabase } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import type { Database } from "~/db/schema";
import { findLedgerDiscrepancies } from "~/domain/coins/coins.server";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

/** The database as it was before 0012, so the migration meets a ledger that already has rows. */
async function migrateBefore0012(db: Kysely<Database>) {
  const migrations = {
    "0001-accounts-and-settings": m0001,
    "0002-catalogue": m0002,
    "0004-coins-orders-services": m0004,
    "0005-support": m0005,
    "0007-site-messages": m0007,
  };
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  }).migrateToLatest();
  if (error) throw error;
}

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
      await migrateBefore0012(db);
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

      await migrateToLatest(db);

      expect(await db.selectFrom("coin_ledger").selectAll().orderBy("id").execute()).toEqual(
        before,
      );
      expect(await ledgerIndexes(db, dialect)).toEqual(indexes);
      expect(indexes).toHaveLength(3);
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
