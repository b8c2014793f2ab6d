import { randomUUID } from "node:crypto";
import type * as reactDomServer from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { expect, it, vi } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { saveAnnouncement } from "~/domain/announcements/announcements.server";
import { keptVisitorPages, streamTimeout } from "~/entry.server";
import { appFetch } from "../support/app-harness";
import { adminId } from "../support/money-fixtures";
import { cookieHeader } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// React's server renderer, as it is, counted: a page served from the cache is not rendered again.
vi.mock("react-dom/server", async (importOriginal) => {
  const original = await importOriginal<typeof reactDomServer>();
  return { ...original, renderToPipeableStream: vi.fn(original.renderToPipeableStream) };
});
const renders = vi.mocked(renderToPipeableStream);

// Visitors' pages are kept rendered (ADR 15), keyed by what their loaders returned: what a page shows must
// still be what the database holds at the time of each request.
describeEachDatabase("visitor page cache", (app) => {
  it("serves a second identical visitor request from the cache, without rendering it", async () => {
    const fetch = appFetch(app());
    // A URL nobody asked for before (each database's run too), so the first request is a miss.
    const path = `/about?unique=${randomUUID()}`;
    const kept = keptVisitorPages();
    renders.mockClear();
    const first = await fetch(path, { nonce: "bWlzcw==" });
    const missed = await first.text();
    expect(first.status).toBe(200);
    expect(renders).toHaveBeenCalledTimes(1);
    expect(keptVisitorPages()).toBe(kept + 1);

    const second = await fetch(path, { nonce: "aGl0" });
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(missed.replaceAll("bWlzcw==", "aGl0"));
    expect(renders).toHaveBeenCalledTimes(1);
    expect(keptVisitorPages()).toBe(kept + 1);

    // The count sees every render: the same URL asked for signed in is rendered (and never kept).
    const signedIn = await signIn(app(), TEST_ADMIN, { ip: "10.61.0.2" });
    if (!signedIn.ok) throw new Error("sign in failed");
    await (await fetch(path, { cookie: cookieHeader(signedIn.setCookies), nonce: "aGl0" })).text();
    expect(renders).toHaveBeenCalledTimes(2);
  });

  it("clears each render's abort timer once the page is whole", async () => {
    // A pending timer keeps React's request and every chunk of the page for six seconds: at a few
    // hundred pages a second, hundreds of pages (docs/performance.md, "The server process").
    const set = vi.spyOn(globalThis, "setTimeout");
    const cleared = vi.spyOn(globalThis, "clearTimeout");
    try {
      const response = await appFetch(app())(`/about?timer=${randomUUID()}`, { nonce: "dGltZXI=" });
      expect(response.status).toBe(200);
      await response.text();
      const renderTimers = set.mock.calls
        .map((call, index) => ({ delay: call[1], timer: set.mock.results[index]!.value }))
        .filter(({ delay }) => delay === streamTimeout + 1000);
      expect(renderTimers).toHaveLength(1);
      expect(cleared.mock.calls.map(([timer]) => timer)).toContain(renderTimers[0]!.timer);
    } finally {
      set.mockRestore();
      cleared.mockRestore();
    }
  });

  it("serves a kept page with each response's own nonce", async () => {
    const fetch = appFetch(app());
    const first = await fetch("/about", { nonce: "Rm9yIHRoZSBmaXJzdCBvbmU=" });
    const second = await fetch("/about", { nonce: "U2Vjb25kIHJlc3BvbnNlIQ==" });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const one = await first.text();
    const two = await second.text();
    expect(one).toContain('nonce="Rm9yIHRoZSBmaXJzdCBvbmU="');
    expect(two).toContain('nonce="U2Vjb25kIHJlc3BvbnNlIQ=="');
    expect(two).not.toContain("Rm9yIHRoZSBmaXJzdCBvbmU=");
    expect(two).toBe(one.replaceAll("Rm9yIHRoZSBmaXJzdCBvbmU=", "U2Vjb25kIHJlc3BvbnNlIQ=="));
    expect(second.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("shows a price changed in the database at the next request, with nothing told to forget", async () => {
    const fetch = appFetch(app());
    const product = await app()
      .db.selectFrom("products")
      .select(["id", "price_cents"])
      .where("type", "=", "samp")
      .where("status", "=", "active")
      .orderBy("position")
      .executeTakeFirstOrThrow();
    // Written straight into the database, as the admin CLI or another process would: nothing is told.
    const setPrice = (cents: number) =>
      app()
        .db.updateTable("products")
        .set({ price_cents: cents })
        .where("id", "=", product.id)
        .execute();
    try {
      await setPrice(12_345);
      const before = await (await fetch("/services/samp", { nonce: "bm9uY2Ugb25l" })).text();
      expect(before).toContain("123.45");
      // Kept now; a second identical request is a hit, not rendered again.
      renders.mockClear();
      expect(await (await fetch("/services/samp", { nonce: "bm9uY2UgdHdv" })).text()).toContain(
        "123.45",
      );
      expect(renders).not.toHaveBeenCalled();

      await setPrice(54_321);
      const after = await (await fetch("/services/samp", { nonce: "bm9uY2UgdGhyZWU=" })).text();
      expect(after).toContain("543.21");
      expect(after).not.toContain("123.45");
    } finally {
      await setPrice(product.price_cents);
    }
  });

  it("shows a privacy text changed in the database at the next request", async () => {
    const fetch = appFetch(app());
    const setPrivacy = (en: string) =>
      app()
        .db.updateTable("settings")
        .set({ value: JSON.stringify({ en, fr: "", ar: "" }) })
        .where("key", "=", "privacy")
        .execute();
    try {
      await setPrivacy("First privacy text");
      app().settings.invalidate();
      const first = await (await fetch("/privacy", { nonce: "cHJpdmFjeSBvbmU=" })).text();
      expect(first).toContain("First privacy text");
      renders.mockClear();
      expect(await (await fetch("/privacy", { nonce: "cHJpdmFjeSB0d28=" })).text()).toContain(
        "First privacy text",
      );
      expect(renders).not.toHaveBeenCalled();

      await setPrivacy("Second privacy text");
      app().settings.invalidate();
      const after = await (await fetch("/privacy", { nonce: "cHJpdmFjeSB0aHJlZQ==" })).text();
      expect(after).toContain("Second privacy text");
      expect(after).not.toContain("First privacy text");
    } finally {
      await setPrivacy("");
      app().settings.invalidate();
    }
  });

  it("shows a new, edited or deactivated announcement at the next request, on a kept page", async () => {
    const fetch = appFetch(app());
    const actorId = await adminId(app());
    // A page nobody asked for before (each database's run too), kept after its first request.
    const path = `/about?unique=${randomUUID()}`;
    const visit = async (nonce: string) => {
      const response = await fetch(path, { nonce });
      expect(response.status).toBe(200);
      return response.text();
    };
    const fields = {
      content: "Planned maintenance on Sunday night.",
      type: "warning",
      targetAudience: "all",
      isActive: true,
    } as const;
    const before = await visit("a2VwdCBvbmU=");
    renders.mockClear();
    expect(await visit("a2VwdCB0d28=")).not.toContain("Cache-test notice");
    expect(renders).not.toHaveBeenCalled();

    const created = await saveAnnouncement(app().db, {
      actorId,
      intent: "create",
      title: "Cache-test notice",
      ...fields,
    });
    expect(created.ok).toBe(true);
    const { id } = await app()
      .db.selectFrom("announcements")
      .select("id")
      .where("title", "=", "Cache-test notice")
      .executeTakeFirstOrThrow();
    try {
      const withIt = await visit("bmV3IG9uZQ==");
      expect(withIt).toContain("Cache-test notice");
      expect(renders).toHaveBeenCalledTimes(1);
      // Kept in its turn: the same data again is a hit.
      expect(await visit("bmV3IHR3bw==")).toContain("Cache-test notice");
      expect(renders).toHaveBeenCalledTimes(1);

      await saveAnnouncement(app().db, {
        actorId,
        intent: "update",
        id,
        title: "Cache-test notice, moved",
        ...fields,
      });
      const edited = await visit("ZWRpdGVk");
      expect(edited).toContain("Cache-test notice, moved");
      expect(renders).toHaveBeenCalledTimes(2);

      await saveAnnouncement(app().db, { actorId, intent: "deactivate", id });
      const gone = await visit("Z29uZQ==");
      expect(gone).not.toContain("Cache-test notice");
      // The data is what it was before the announcement: the page kept then is the one to send.
      expect(gone).toBe(before.replaceAll("a2VwdCBvbmU=", "Z29uZQ=="));
      expect(renders).toHaveBeenCalledTimes(2);
    } finally {
      await app().db.deleteFrom("announcements").where("id", "=", id).execute();
    }
  });

  it("keeps no page of a signed-in person", async () => {
    const fetch = appFetch(app());
    const result = await signIn(app(), TEST_ADMIN, { ip: "10.61.0.1" });
    if (!result.ok) throw new Error("sign in failed");
    const cookie = cookieHeader(result.setCookies);
    // A path no visitor asked for before (each database's run too), so the count moves only for this one.
    const path = `/service-terms?unique=${randomUUID()}`;
    const kept = keptVisitorPages();
    const page = await fetch(path, { cookie, nonce: "c2lnbmVkIGlu" });
    expect(page.status).toBe(200);
    await page.text();
    expect(keptVisitorPages()).toBe(kept);

    await (await fetch(path, { nonce: "dmlzaXRvcg==" })).text();
    expect(keptVisitorPages()).toBe(kept + 1);
  });

  it("keeps no page that failed or was not found", async () => {
    const fetch = appFetch(app());
    const kept = keptVisitorPages();
    const missing = await fetch(`/no-such-page-${randomUUID()}`, { nonce: "bWlzc2luZw==" });
    expect(missing.status).toBe(404);
    await missing.text();
    expect(keptVisitorPages()).toBe(kept);
  });
});
