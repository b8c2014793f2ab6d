import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { MIGRATIONS } from "~/db/migrate.server";
import { MAX_BALANCE_CENTS } from "~/domain/coins/coins";
import { adjustCoins, postLedgerEntry } from "~/domain/coins/coins.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0019-coin-limits";
const BEFORE = migrationBefore(MIGRATION);

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

  it("migrates a database holding a balance above the ceiling, keeps it, and refuses a credit to it", async () => {
    const target = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(target.url);
    const { db } = handle;
    try {
      await migrateTo(db, BEFORE);
      // Possible before 0019: admin credits, each within their limit, added up past the ceiling.
      const over = MAX_BALANCE_CENTS + 50_000;
      const now = new Date().toISOString();
      await db
        .insertInto("users")
        .values({
          id: "boss",
          name: "Boss",
          email: "boss@example.com",
          // The admin whose credits these were: an Owner once migration 0052 has run, whose coin
          // changes the use-case lets through to the ceiling's refusal.
          role: "admin",
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto("users")
        .values({
          id: "rich",
          name: "Rich",
          email: "rich@example.com",
          coin_balance_cents: over,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto("coin_ledger")
        .values({
          user_id: "rich",
          amount_cents: over,
          balance_after_cents: over,
          kind: "admin_adjustment",
          created_at: now,
        })
        .execute();

      await migrateTo(db, MIGRATION);
      const balance = async () =>
        (
          await db
            .selectFrom("users")
            .select("coin_balance_cents")
            .where("id", "=", "rich")
            .executeTakeFirstOrThrow()
        ).coin_balance_cents;
      expect(await balance()).toBe(over);
      // The ledger step and the use-case below are today's code, which writes columns later migrations
      // add (0023's reason message): the later migrations run first, and must keep the balance too.
      await migrateTo(db, Object.keys(MIGRATIONS).sort().at(-1)!);
      expect(await balance()).toBe(over);

      // A credit is refused by the ledger step, and by the database behind it.
      const post = (amountCents: number) =>
        db
          .transaction()
          .execute((trx) =>
            postLedgerEntry(trx, { userId: "rich", amountCents, kind: "admin_adjustment" }),
          );
      expect(await post(1)).toBeNull();
      const adjust = (amountCents: number) =>
        adjustCoins(db, { userId: "rich", amountCents, reason: "test", actorId: "boss" });
      expect(await adjust(100)).toEqual({
        ok: false,
        kind: "conflict",
        error: "coins.errors.balanceTooHigh",
      });
      await expect(
        sql`update users set coin_balance_cents = coin_balance_cents + 1 where id = 'rich'`.execute(
          db,
        ),
      ).rejects.toThrow(/users_coin_balance_max/);
      expect(await balance()).toBe(over);

      // The account keeps working: its other columns change, and coins can be spent or removed (the
      // balance going down, even while it is still above the ceiling).
      await db
        .updateTable("users")
        .set({ name: "Still rich", locale: "fr" })
        .where("id", "=", "rich")
        .execute();
      expect(await post(-10_000)).toBe(over - 10_000);
      expect(await adjust(-10_000)).toMatchObject({ ok: true, balanceCents: over - 20_000 });
      // Writing the same balance again is no change either.
      await sql`update users set coin_balance_cents = coin_balance_cents where id = 'rich'`.execute(
        db,
      );
      expect(await post(-(over - 20_000 - MAX_BALANCE_CENTS))).toBe(MAX_BALANCE_CENTS);
      expect(await post(1)).toBeNull();
      const ledger = await db
        .selectFrom("coin_ledger")
        .select((eb) => eb.fn.sum<string>("amount_cents").as("sum"))
        .where("user_id", "=", "rich")
        .executeTakeFirstOrThrow();
      expect(Number(ledger.sum)).toBe(await balance());
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
