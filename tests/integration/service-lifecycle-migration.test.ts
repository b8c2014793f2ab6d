import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { getSettings } from "~/domain/settings/settings.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0028-service-lifecycle";
const BEFORE = migrationBefore(MIGRATION);

// A safe first run: on an install that already has services the lifecycle starts switched off,
// so nothing long expired is suspended or terminated before an admin has looked at the preview; a new
// install starts with it on. Services and orders that exist stay without automatic renewal.
describe.each(dialects)("migration 0028 [%s]", (dialect) => {
  for (const withServices of [true, false]) {
    it(`switches the lifecycle ${withServices ? "off on an install with services" : "on for a new install"}, and goes down again`, async () => {
      const target = await createTestDatabaseUrl(dialect);
      const handle = createDatabase(target.url);
      const { db } = handle;
      try {
        await migrateTo(db, BEFORE);
        const now = new Date().toISOString();
        if (withServices) {
          await db
            .insertInto("users")
            .values({
              id: "u1",
              name: "U",
              email: "u@example.com",
              created_at: now,
              updated_at: now,
            })
            .execute();
          await db
            .insertInto("hosting_services")
            .values({
              user_id: "u1",
              product_id: null,
              name: "Old server",
              monthly_price_cents: 500,
              cycle_price_cents: 500,
              status: "suspended",
              expires_at: "2020-01-01T00:00:00.000Z",
              created_at: now,
              updated_at: now,
            })
            .execute();
        }
        await migrateTo(db, MIGRATION);
        expect((await getSettings(db)).lifecycle.enabled).toBe(!withServices);
        if (withServices) {
          const service = await db
            .selectFrom("hosting_services")
            .select(["auto_renew", "suspension_reason", "suspended_at"])
            .executeTakeFirstOrThrow();
          // Off for what existed, and an old suspension counts as an admin's (never lifted by itself).
          expect(service).toEqual({ auto_renew: 0, suspension_reason: null, suspended_at: null });
        }
        await migrateTo(db, BEFORE);
        const row = await db
          .selectFrom("settings")
          .select("key")
          .where("key", "=", "lifecycle")
          .executeTakeFirst();
        expect(row).toBeUndefined();
        await migrateTo(db, MIGRATION);
      } finally {
        await handle.destroy();
        await target.drop();
      }
    });
  }
});
