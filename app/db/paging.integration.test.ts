import { expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/test-database";
import { countRows, fetchPage } from "./paging";

describeEachDatabase("paging", (app) => {
  it("reads a page, says whether another follows, and counts what a query matches", async () => {
    const { db } = app();
    const now = new Date().toISOString();
    await db
      .insertInto("newsletter_subscribers")
      .values(["a", "b", "c"].map((name) => ({ email: `${name}@paging.test`, created_at: now })))
      .execute();
    const ours = db.selectFrom("newsletter_subscribers").where("email", "like", "%@paging.test");
    const emails = ours.select("email").orderBy("email");
    expect(await fetchPage(emails, { limit: 2, offset: 0 })).toEqual({
      rows: [{ email: "a@paging.test" }, { email: "b@paging.test" }],
      hasMore: true,
    });
    expect(await fetchPage(emails, { limit: 2, offset: 2 })).toEqual({
      rows: [{ email: "c@paging.test" }],
      hasMore: false,
    });
    expect(await fetchPage(emails, { limit: 3, offset: 0 })).toMatchObject({ hasMore: false });
    expect(await countRows(ours)).toBe(3);
    expect(await countRows(ours.where("email", "like", "b%"))).toBe(1);
  });
});
