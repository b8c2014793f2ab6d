import { expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { mailListQuerySchema } from "./mail.schemas";
import { listOutbox } from "./outbox-list.server";

// /admin/mail searched by recipient: part of the address, any case, LIKE's wildcards and its escape
// character taken as the letters they are, paged with the count of everything that matches.

describeEachDatabase("the mail log searched by recipient", (app) => {
  const AT = "2031-05-01T10:00:00.000Z";
  let next = 0;

  /** A message kept for `to` (no user: the search reads the address the message went to). */
  async function mailTo(to: string) {
    next += 1;
    await app()
      .db.insertInto("mail_outbox")
      .values({
        unique_key: `search-test:${next}`,
        kind: "orderReceived",
        user_id: null,
        to_address: to,
        locale: "en",
        state: "kept",
        created_at: AT,
        updated_at: AT,
      })
      .execute();
  }

  async function search(to: string, page = 1, pageSize?: number) {
    const query = mailListQuerySchema.parse({ to, page: String(page) });
    const list = await listOutbox(app().db, { ...query, pageSize });
    return { to: list.messages.map((message) => message.to), matching: list.matching, list };
  }

  it("finds part of an address in any case, wildcards taken literally", async () => {
    for (const to of [
      "under_score@search.test",
      "underXscore@search.test",
      "fifty%off@search.test",
      "fifty-off@search.test",
      "back\\slash@search.test",
      "Mixed.Case@Search.TEST",
    ])
      await mailTo(to);

    expect((await search("under_score")).to).toEqual(["under_score@search.test"]);
    expect((await search("_score@search.test")).to).toEqual(["under_score@search.test"]);
    expect((await search("fifty%")).to).toEqual(["fifty%off@search.test"]);
    expect((await search("back\\s")).to).toEqual(["back\\slash@search.test"]);
    expect((await search("mixed.case@search.test")).to).toEqual(["Mixed.Case@Search.TEST"]);
    expect((await search("  MIXED.CASE ")).to).toEqual(["Mixed.Case@Search.TEST"]);
    // LIKE's own characters alone find the one address holding each; a quote and SQL, nothing.
    for (const text of ["%", "_", "\\"]) expect((await search(text)).matching, text).toBe(1);
    expect((await search("'; drop table mail_outbox; --")).matching).toBe(0);
    // Every address of this test, and nothing else of the outbox.
    const all = await search("@search.test");
    expect(all.matching).toBe(6);
    expect(all.to).toHaveLength(6);
  });

  it("pages what matches, newest first, with the count of all of it", async () => {
    for (let i = 0; i < 5; i++) await mailTo(`paged-${i}@pages.test`);
    await mailTo("someone-else@elsewhere.test");
    const first = await search("@pages.test", 1, 2);
    expect(first.to).toEqual(["paged-4@pages.test", "paged-3@pages.test"]);
    expect(first.matching).toBe(5);
    expect(first.list.hasMore).toBe(true);
    const last = await search("@pages.test", 3, 2);
    expect(last.to).toEqual(["paged-0@pages.test"]);
    expect(last.list.hasMore).toBe(false);
  });

  it("ignores a search longer than an address can be", async () => {
    expect(mailListQuerySchema.parse({ to: "x".repeat(255) }).to).toBeUndefined();
    expect(mailListQuerySchema.parse({ to: "x".repeat(254) }).to).toHaveLength(254);
  });
});
