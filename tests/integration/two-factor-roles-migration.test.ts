import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { getSettings, seedSettings } from "~/domain/settings/settings.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0052-staff-roles";
const BEFORE = migrationBefore(MIGRATION);
const ALL_ROLES = ["owner", "billing", "support", "technician"];

// "Require two-factor sign-in for admins" became a list of staff roles. An install keeps what it had:
// every role when the switch was on, none when it was off or its row could not be read; an install
// without the row gets the new default (Owner and Billing) when the settings are seeded at start.
describe.each(dialects)("migration 0052's two-factor roles [%s]", (dialect) => {
  /** A database at the migration before, with the security row `stored` (none when undefined). */
  async function withOldSettings(
    stored: string | undefined,
    run: (db: ReturnType<typeof createDatabase>["db"]) => Promise<void>,
  ) {
    const target = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(target.url);
    try {
      await migrateTo(handle.db, BEFORE);
      if (stored !== undefined)
        await handle.db
          .insertInto("settings")
          .values({ key: "security", value: stored, updated_at: new Date().toISOString() })
          .execute();
      await run(handle.db);
    } finally {
      await handle.destroy();
      await target.drop();
    }
  }
  const storedRow = async (db: ReturnType<typeof createDatabase>["db"]) => {
    const row = await db
      .selectFrom("settings")
      .select("value")
      .where("key", "=", "security")
      .executeTakeFirst();
    return row && (JSON.parse(row.value) as Record<string, unknown>);
  };

  it("requires it of every role on an install that had the switch on, and goes down to it again", async () => {
    await withOldSettings(JSON.stringify({ requireAdminTwoFactor: true }), async (db) => {
      await migrateTo(db, MIGRATION);
      expect(await storedRow(db)).toEqual({ twoFactorRoles: ALL_ROLES });
      expect((await getSettings(db)).security).toEqual({
        twoFactorRoles: ALL_ROLES,
        billingCoinCap: 500,
        supportDailyCoinCap: 20,
        freshProofCoinThreshold: 100,
      });
      // Seeding at the next start leaves the row as the migration wrote it.
      await seedSettings(db);
      expect((await getSettings(db)).security.twoFactorRoles).toEqual(ALL_ROLES);

      await migrateTo(db, BEFORE);
      expect(await storedRow(db)).toEqual({ requireAdminTwoFactor: true });
      await migrateTo(db, MIGRATION);
      expect((await getSettings(db)).security.twoFactorRoles).toEqual(ALL_ROLES);
    });
  });

  it("requires it of no role on an install that had the switch off, and goes down to off", async () => {
    await withOldSettings(JSON.stringify({ requireAdminTwoFactor: false }), async (db) => {
      await migrateTo(db, MIGRATION);
      expect(await storedRow(db)).toEqual({ twoFactorRoles: [] });
      expect((await getSettings(db)).security.twoFactorRoles).toEqual([]);
      await seedSettings(db);
      expect((await getSettings(db)).security.twoFactorRoles).toEqual([]);
      await migrateTo(db, BEFORE);
      expect(await storedRow(db)).toEqual({ requireAdminTwoFactor: false });
    });
  });

  it("reads a row it cannot parse as the switch off: no role, never a role nobody chose", async () => {
    for (const unreadable of ["{not json", "null", '"on"']) {
      await withOldSettings(unreadable, async (db) => {
        await migrateTo(db, MIGRATION);
        expect(await storedRow(db), unreadable).toEqual({ twoFactorRoles: [] });
        expect((await getSettings(db)).security.twoFactorRoles, unreadable).toEqual([]);
      });
    }
  });

  it("writes nothing without a row, and the seed then gives the new default: Owner and Billing", async () => {
    await withOldSettings(undefined, async (db) => {
      await migrateTo(db, MIGRATION);
      expect(await storedRow(db)).toBeUndefined();
      await seedSettings(db);
      expect(await storedRow(db)).toMatchObject({ twoFactorRoles: ["owner", "billing"] });
      expect((await getSettings(db)).security.twoFactorRoles).toEqual(["owner", "billing"]);
      // Down, that list is the switch on.
      await migrateTo(db, BEFORE);
      expect(await storedRow(db)).toEqual({ requireAdminTwoFactor: true });
    });
  });

  it("goes down to off from a list that requires no role", async () => {
    await withOldSettings(undefined, async (db) => {
      await migrateTo(db, MIGRATION);
      await seedSettings(db, { twoFactorRoles: [] });
      expect((await getSettings(db)).security.twoFactorRoles).toEqual([]);
      await migrateTo(db, BEFORE);
      expect(await storedRow(db)).toEqual({ requireAdminTwoFactor: false });
    });
  });
});
