import { statSync } from "node:fs";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDatabaseUrl } from "../../tests/support/test-database";
import { createDatabase, sqliteFilePath } from "./database.server";
import { FALLBACK_AUTOCHECKPOINT_PAGES } from "./sqlite-checkpointer.server";

async function writeAbout2MB(db: ReturnType<typeof createDatabase>["db"]) {
  await sql`create table filler (id integer primary key, body text not null)`.execute(db);
  for (let i = 0; i < 200; i++) {
    await sql`insert into filler (body) values (${"x".repeat(10_000)})`.execute(db);
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe("WAL checkpoints on their own thread", () => {
  it("copies committed pages into the database file without a request connection doing it", async () => {
    const { url, drop } = await createTestDatabaseUrl("sqlite");
    const handle = createDatabase(url, { backgroundCheckpoints: true });
    try {
      const pages = await sql<{
        wal_autocheckpoint: number;
      }>`pragma wal_autocheckpoint`.execute(handle.db);
      expect(pages.rows[0]?.wal_autocheckpoint).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
      // About 500 pages: under the request connection's own (fallback) threshold, so only the thread
      // can have moved them from the log into the file.
      await writeAbout2MB(handle.db);
      const file = sqliteFilePath(url);
      expect(await waitFor(() => statSync(file).size > 1_500_000, 5_000)).toBe(true);
    } finally {
      await handle.destroy();
      await drop();
    }
  });

  it("leaves checkpoints to SQLite's own threshold when not asked for (scripts and tests)", async () => {
    const { url, drop } = await createTestDatabaseUrl("sqlite");
    const handle = createDatabase(url);
    try {
      await writeAbout2MB(handle.db);
      await new Promise((resolve) => setTimeout(resolve, 600));
      // Under 1,000 pages nothing has been copied back yet: the pages are in the log only.
      expect(statSync(sqliteFilePath(url)).size).toBeLessThan(500_000);
    } finally {
      await handle.destroy();
      await drop();
    }
  });
});
