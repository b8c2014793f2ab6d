import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { pruneFormWindows } from "~/domain/request-limits/request-limits.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0041-form-limit-windows";
const BEFORE = migrationBefore(MIGRATION);

// The slots counted before 0041 were all of one-minute windows: each counts until 70 s after its start,
// as the code writes it, so pruning by `counted_until` deletes them when pruning by their start did.
describe.each(dialects)("migration 0041 [%s]", (dialect) => {
  it("says until when each slot counted before it counts, and prunes by that", async () => {
    const target = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(target.url);
    const { db } = handle;
    try {
      await migrateTo(db, BEFORE);
      const slots = ["2026-11-23T10:15:40.000Z", "2026-11-23T10:16:30.000Z"];
      for (const window_start of slots)
        await sql`insert into form_rate_windows (ip_address, form, window_start, hits) values (${"192.0.2.7"}, ${"/contact"}, ${window_start}, ${3})`.execute(
          db,
        );
      await migrateTo(db, MIGRATION);
      const rows = await db
        .selectFrom("form_rate_windows")
        .select(["window_start", "counted_until"])
        .orderBy("window_start")
        .execute();
      expect(rows.map((row) => new Date(row.counted_until!).toISOString())).toEqual([
        "2026-11-23T10:16:50.000Z",
        "2026-11-23T10:17:40.000Z",
      ]);
      expect(
        await pruneFormWindows(db, new Date("2026-11-23T10:16:50.000Z"), { force: true }),
      ).toBe(1);
      await migrateTo(db, BEFORE);
      expect(await db.selectFrom("form_rate_windows").select("hits").execute()).toEqual([
        { hits: 3 },
      ]);
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
