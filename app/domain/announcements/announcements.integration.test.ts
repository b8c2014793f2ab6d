import { beforeAll, expect, it } from "vitest";
import { appFetch, type AppFetch } from "../../../tests/support/app-harness";
import { signedInCookie, registeredCustomer } from "../../../tests/support/account-fixtures";
import { adminId } from "../../../tests/support/money-fixtures";
import { describeEachDatabase, TEST_ADMIN } from "../../../tests/support/test-database";
import type { Announcement } from "./announcements";
import { listActiveAnnouncements, saveAnnouncement } from "./announcements.server";

/** A title no other text of any page contains, so its presence says which place shows it. */
const TITLES = {
  all: "Announcement-for-everyone-7f3a",
  customers: "Announcement-for-customers-2b9c",
  admins: "Announcement-for-admins-5d1e",
  inactive: "Announcement-switched-off-8e4f",
} as const;

// Where each audience is shown (docs/storefront.md): "Everyone" on the public pages and both dashboards,
// "Customers" on the customer dashboard, "Admins" on the admin dashboard; only active ones, newest first.
describeEachDatabase("announcements by audience", (app) => {
  let fetch: AppFetch;
  let customer: string;
  let admin: string;

  async function create(
    title: string,
    targetAudience: Announcement["targetAudience"],
    type: Announcement["type"],
    isActive = true,
  ) {
    const result = await saveAnnouncement(app().db, {
      actorId: await adminId(app()),
      intent: "create",
      title,
      content: `${title} text`,
      type,
      targetAudience,
      isActive,
    });
    if (!result.ok) throw new Error(result.error);
  }

  beforeAll(async () => {
    fetch = appFetch(app());
    // The seeded welcome announcement is for everyone; gone, each place shows exactly what is made here.
    await app().db.deleteFrom("announcements").execute();
    await create(TITLES.all, "all", "info");
    await create(TITLES.customers, "customers", "success");
    await create(TITLES.admins, "admins", "warning");
    await create(TITLES.inactive, "all", "warning", false);
    const account = {
      name: "Ann Nouncement",
      email: "ann@example.test",
      password: "Lantern-Quay-8841",
    };
    await registeredCustomer(app(), account);
    customer = await signedInCookie(app(), account, { ip: "10.81.0.1" });
    admin = await signedInCookie(app(), TEST_ADMIN, { ip: "10.81.0.2" });
  });

  it("gives each place the active announcements of its audiences, newest first", async () => {
    const titles = async (place: "public" | "customers" | "admins") =>
      (await listActiveAnnouncements(app().db, place)).map((a) => a.title);
    expect(await titles("public")).toEqual([TITLES.all]);
    expect(await titles("customers")).toEqual([TITLES.customers, TITLES.all]);
    expect(await titles("admins")).toEqual([TITLES.admins, TITLES.all]);
    expect(await listActiveAnnouncements(app().db, "admins")).toEqual([
      {
        id: expect.any(Number),
        title: TITLES.admins,
        content: `${TITLES.admins} text`,
        type: "warning",
      },
      { id: expect.any(Number), title: TITLES.all, content: `${TITLES.all} text`, type: "info" },
    ]);
  });

  it("orders by when they were made, not by id (an imported one keeps its date)", async () => {
    const now = new Date().toISOString();
    const row = await app()
      .db.insertInto("announcements")
      .values({
        title: "Imported-long-ago-4c2a",
        content: "From the old site",
        type: "info",
        is_active: 1,
        target_audience: "all",
        created_at: "2024-01-15T09:00:00.000Z",
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    try {
      const shown = await listActiveAnnouncements(app().db, "public");
      expect(shown.map((a) => a.title)).toEqual([TITLES.all, "Imported-long-ago-4c2a"]);
    } finally {
      await app().db.deleteFrom("announcements").where("id", "=", row.id).execute();
    }
  });

  it("shows at most five in one place", async () => {
    const made: string[] = [];
    for (let i = 0; i < 6; i++) made.push(`Many-${i}-9a7b`);
    for (const title of made) await create(title, "all", "info");
    try {
      const shown = await listActiveAnnouncements(app().db, "public");
      expect(shown.map((a) => a.title)).toEqual(made.slice(1).reverse());
    } finally {
      await app().db.deleteFrom("announcements").where("title", "in", made).execute();
    }
  });

  async function page(path: string, cookie?: string) {
    const response = await fetch(path, { cookie });
    expect(response.status, path).toBe(200);
    return response.text();
  }

  /** The titles of the audiences a page's HTML contains, anywhere (its data for React included). */
  function audiencesIn(html: string) {
    return (Object.keys(TITLES) as (keyof typeof TITLES)[]).filter((key) =>
      html.includes(TITLES[key]),
    );
  }

  /** The titles of the audiences in the page's lists of announcements. */
  function audiencesShownIn(html: string) {
    const lists = [...html.matchAll(/<section aria-label="Announcements"[\s\S]*?<\/section>/g)];
    return audiencesIn(lists.map((list) => list[0]).join(""));
  }

  it("shows a visitor the announcements for everyone on the public pages, under the header", async () => {
    for (const path of ["/", "/about", "/services/vps", "/contact", "/login", "/register"]) {
      const html = await page(path);
      expect(audiencesIn(html), path).toEqual(["all"]);
      expect(audiencesShownIn(html), path).toEqual(["all"]);
      // A named region after the header and before the page's own main content.
      const header = html.indexOf("</header>");
      const region = html.indexOf('<section aria-label="Announcements"');
      const main = html.indexOf("<main");
      expect(header, path).toBeGreaterThan(0);
      expect(region, path).toBeGreaterThan(header);
      expect(main, path).toBeGreaterThan(region);
      expect(html.slice(region, main)).toContain(
        `<p class="font-semibold wrap-anywhere" dir="auto">${TITLES.all}</p>`,
      );
    }
  });

  it("shows them on the public pages in the visitor's language around them", async () => {
    const html = await page("/about?lang=fr");
    expect(html).toContain('<section aria-label="Annonces"');
    expect(html).toContain(TITLES.all);
  });

  it("shows a signed-in customer the same on the public pages, and nothing for admins", async () => {
    expect(audiencesIn(await page("/", customer))).toEqual(["all"]);
    expect(audiencesIn(await page("/about", admin))).toEqual(["all"]);
  });

  it("shows the customer dashboard's announcements for everyone and for customers", async () => {
    const html = await page("/dashboard", customer);
    expect(audiencesIn(html)).toEqual(["all", "customers"]);
    expect(audiencesShownIn(html)).toEqual(["all", "customers"]);
    // Once: in the dashboard's own list, not again under the header.
    expect(html.split('<section aria-label="Announcements"')).toHaveLength(2);
    expect(html.indexOf(TITLES.customers)).toBeLessThan(html.indexOf(TITLES.all));
  });

  it("shows the admin dashboard's announcements for everyone and for admins", async () => {
    const html = await page("/admin", admin);
    // (The page's recent activity names every announcement made, the customers' one too: the audit log.)
    expect(audiencesShownIn(html)).toEqual(["all", "admins"]);
    const list = html.slice(html.indexOf('<section aria-label="Announcements"'));
    expect(list.indexOf(TITLES.admins)).toBeLessThan(list.indexOf(TITLES.all));
    // The other admin pages do not repeat them.
    expect(audiencesShownIn(await page("/admin/orders", admin))).toEqual([]);
  });

  it("shows no list where there is nothing to show", async () => {
    await app()
      .db.updateTable("announcements")
      .set({ is_active: 0 })
      .where("title", "=", TITLES.all)
      .execute();
    try {
      expect(await page("/about")).not.toContain('aria-label="Announcements"');
    } finally {
      await app()
        .db.updateTable("announcements")
        .set({ is_active: 1 })
        .where("title", "=", TITLES.all)
        .execute();
    }
  });
});
