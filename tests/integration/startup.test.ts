import { sql, type Kysely } from "kysely";
import { expect, it } from "vitest";
import { createServices, prepareDatabase } from "~/context.server";
import type { Database } from "~/db/schema";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { schemaTables } from "../support/schema-snapshot";
import {
  createPreparedTestDatabase,
  describeEachDatabase,
  testEnv,
} from "../support/test-database";

/**
 * A database's shape and seed, without what differs between two starts by design (a password hash's
 * salt, the moment a row was written): each table's columns and row count, and the seeded catalogue.
 */
async function shapeAndSeed(db: Kysely<Database>) {
  const tables = await db.introspection.getTables();
  const counts: Record<string, number> = {};
  for (const table of await schemaTables(db)) {
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]!.n);
  }
  return {
    columns: Object.fromEntries(
      tables.map((table) => [table.name, table.columns.map((column) => column.name).sort()]),
    ),
    counts,
    products: await db
      .selectFrom("products")
      .select(["id", "slug", "price_cents"])
      .orderBy("id")
      .execute(),
    settings: await db.selectFrom("settings").select(["key", "value"]).orderBy("key").execute(),
    admins: await db.selectFrom("users").select(["email", "role"]).orderBy("email").execute(),
  };
}

// The cold path: an empty database migrated from nothing and seeded, as a first start does. Every other
// suite starts from a copy of a database prepared once a run; the first test proves the two alike.
describeEachDatabase(
  "start-up",
  (app, dialect) => {
    it("migrates and seeds an empty database into the database every other test copies", async () => {
      const copy = await createPreparedTestDatabase(dialect);
      const copied = createServices(testEnv(copy.url));
      try {
        expect(await shapeAndSeed(copied.db)).toEqual(await shapeAndSeed(app().db));
      } finally {
        await copied.database.destroy();
        await copy.drop();
      }
    });

    it("seeds once: a second start keeps every row and every admin edit", async () => {
      const { db } = app();
      await updateSettingsSection(db, "general", { siteName: "Atlas Hosting" });
      await db
        .updateTable("products")
        .set({ price_cents: 275 })
        .where("slug", "=", "samp-starter")
        .execute();
      await db
        .updateTable("announcements")
        .set({ title: "Hello gamers" })
        .where("seed_key", "=", "welcome")
        .execute();

      const snapshot = async () => ({
        users: await db.selectFrom("users").selectAll().orderBy("id").execute(),
        settings: await db.selectFrom("settings").select(["key", "value"]).orderBy("key").execute(),
        products: await db.selectFrom("products").selectAll().orderBy("id").execute(),
        vouchers: await db.selectFrom("vouchers").selectAll().orderBy("id").execute(),
        announcements: await db.selectFrom("announcements").selectAll().orderBy("id").execute(),
        ledger: await db.selectFrom("coin_ledger").selectAll().orderBy("id").execute(),
      });
      const before = await snapshot();
      await prepareDatabase(app());
      await prepareDatabase(app());
      expect(await snapshot()).toEqual(before);
      expect(before.settings.find((s) => s.key === "general")?.value).toContain("Atlas Hosting");
      expect(before.products).toHaveLength(12);
      expect(before.vouchers.map((v) => v.code)).toEqual(["WELCOME10"]);
      expect(before.announcements).toHaveLength(1);
    });
  },
  { fresh: true },
);
