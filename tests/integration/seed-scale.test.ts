import { describe, expect, it } from "vitest";
import { parseEnv } from "~/config/env.server";
import { createServices } from "~/context.server";
import { signIn } from "~/domain/accounts/accounts.server";
import { findLedgerDiscrepancies } from "~/domain/coins/coins.server";
import { HEAVY_CUSTOMER, SCALE_SIZES, seedScale } from "../../scripts/bench/seed-scale";
import { BENCH_SECRET } from "../../scripts/bench/lib";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

// The scale benchmark's database (tiny size): the counts it promises, books that balance, and the two
// accounts the benchmark signs in with.
describe.each(dialects)("scale benchmark seed [%s]", (dialect) => {
  it("writes the promised rows with running balances, and its users can sign in", async () => {
    const database = await createTestDatabaseUrl(dialect);
    // Opened after seeding: the seed starts a SQLite database afresh, removing its file.
    const seeded = await seedScale(database.url, "tiny");
    const services = createServices({
      ...parseEnv({ DATABASE_URL: database.url }),
      AUTH_SECRET: BENCH_SECRET,
    });
    try {
      const target = SCALE_SIZES.tiny;
      expect(seeded).toMatchObject({
        customers: target.customers,
        ledgerRows: target.ledgerRows,
        orders: target.orders,
      });
      const count = async (table: "users" | "coin_ledger" | "orders") =>
        Number(
          (
            await services.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      // The customers and the admin.
      expect(await count("users")).toBe(target.customers + 1);
      expect(await count("coin_ledger")).toBe(target.ledgerRows);
      expect(await count("orders")).toBe(target.orders);
      expect(seeded.heavy.ledgerRows).toBeGreaterThan(20);
      expect(await findLedgerDiscrepancies(services.db)).toEqual([]);
      const session = await signIn(
        services,
        { email: HEAVY_CUSTOMER.email, password: HEAVY_CUSTOMER.password },
        { ip: "127.0.0.1" },
      );
      expect(session.ok).toBe(true);
      // A second seed of a PostgreSQL database is refused rather than doubling it (SQLite's file is
      // started afresh instead).
      if (dialect === "postgres")
        await expect(seedScale(database.url, "tiny")).rejects.toThrow(/already has customers/);
    } finally {
      await services.database.destroy();
      await database.drop();
    }
  });
});
