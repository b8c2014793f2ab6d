import { describe, expect, it } from "vitest";
import { createTestDatabaseUrl, dialects } from "../../tests/support/test-database";
import { createDatabase } from "./database.server";
import { migrateToLatest } from "./migrate.server";
import { countRows, fetchPage } from "./paging";

describe.each(dialects)("paging [%s]", (dialect) => {
  it("reads a page, says whether another follows, and counts what a query matches", async () => {
    const database = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(database.url);
    try {
      await migrateToLatest(handle.db);
      const now = new Date().toISOString();
      await handle.db
        .insertInto("newsletter_subscribers")
        .values(["a@x.test", "b@x.test", "c@x.test"].map((email) => ({ email, created_at: now })))
        .execute();
      const emails = handle.db
        .selectFrom("newsletter_subscribers")
        .select("email")
        .orderBy("email");
      expect(await fetchPage(emails, { limit: 2, offset: 0 })).toEqual({
        rows: [{ email: "a@x.test" }, { email: "b@x.test" }],
        hasMore: true,
      });
      expect(await fetchPage(emails, { limit: 2, offset: 2 })).toEqual({
        rows: [{ email: "c@x.test" }],
        hasMore: false,
      });
      expect(await fetchPage(emails, { limit: 3, offset: 0 })).toMatchObject({ hasMore: false });
      const all = handle.db.selectFrom("newsletter_subscribers");
      expect(await countRows(all)).toBe(3);
      expect(await countRows(all.where("email", "like", "b%"))).toBe(1);
    } finally {
      await handle.destroy();
    }
    await database.drop();
  });
});
