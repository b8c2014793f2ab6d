import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  header,
  registerOverHttp,
  signedIn,
  test,
  visit,
} from "./fixtures";

type Audience = "all" | "customers" | "admins";

const AUDIENCE_LABELS: Record<Audience, string> = {
  all: "Everyone",
  customers: "Customers",
  admins: "Admins",
};

/** The "Announcements" region of a page (under the header, or in a dashboard). */
function announcements(page: Page) {
  return page.getByRole("region", { name: "Announcements" });
}

/** The titles shown in the page's announcements, among `titles`. */
async function shown(page: Page, titles: Record<Audience, string>): Promise<Audience[]> {
  const region = announcements(page);
  const text = (await region.count()) ? await region.innerText() : "";
  return (Object.keys(titles) as Audience[]).filter((audience) => text.includes(titles[audience]));
}

async function createAnnouncement(
  page: Page,
  fields: {
    title: string;
    content: string;
    type: string;
    audience: Audience;
    /** The French title, the French content left empty (it shows the English one). */
    titleFr?: string;
  },
) {
  await visit(page, "/admin/announcements");
  const form = page
    .locator("form")
    .filter({ has: page.locator('input[name="intent"][value="create"]') });
  // Exact labels: the French and Arabic fields are "Title in French", "Content in Arabic"...
  await form.getByLabel("Title", { exact: true }).fill(fields.title);
  await form.getByLabel("Content", { exact: true }).fill(fields.content);
  if (fields.titleFr) await form.getByLabel("Title in French").fill(fields.titleFr);
  await form.getByLabel("Type").selectOption({ label: fields.type });
  await form.getByLabel("Audience").selectOption({ label: AUDIENCE_LABELS[fields.audience] });
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Announcement created.")).toBeVisible();
}

/** The announcements region of a French page ("Annonces"). */
function frenchAnnouncements(page: Page) {
  return page.getByRole("region", { name: "Annonces" });
}

/** The admin's row of an announcement on /admin/announcements. */
function row(page: Page, title: string) {
  return page.getByRole("listitem").filter({ hasText: title });
}

async function visitor(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test("an admin announces to each audience and each shows only where it belongs", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString("hex");
  const titles: Record<Audience, string> = {
    all: `Everyone-notice-${tag}`,
    customers: `Customers-notice-${tag}`,
    admins: `Admins-notice-${tag}`,
  };
  const guest = await browser.newContext();
  const customer = await registerOverHttp(guest, { name: "Nour Notice" });
  await guest.close();

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const frenchTitle = `Annonce-pour-tous-${tag}`;
  await createAnnouncement(admin.page, {
    title: titles.all,
    content: "Planned maintenance on Sunday night.",
    type: "Warning",
    audience: "all",
    titleFr: frenchTitle,
  });
  await createAnnouncement(admin.page, {
    title: titles.customers,
    content: "New VPS plans for our customers.",
    type: "Good news",
    audience: "customers",
  });
  await createAnnouncement(admin.page, {
    title: titles.admins,
    content: "Review the pending orders before Friday.",
    type: "Info",
    audience: "admins",
  });

  try {
    // The admin dashboard: everyone's and the team's, the newest first.
    await visit(admin.page, "/admin");
    expect(await shown(admin.page, titles)).toEqual(["all", "admins"]);
    const adminList = announcements(admin.page).getByRole("listitem");
    await expect(adminList.first()).toContainText(titles.admins);
    // A signed-in admin on a public page sees what visitors see.
    await visit(admin.page, "/about");
    expect(await shown(admin.page, titles)).toEqual(["all"]);

    // A visitor: everyone's, under the header of the public pages, in the warning's colour.
    const anonymous = await visitor(browser);
    for (const path of ["/", "/about", "/services/samp"]) {
      await visit(anonymous.page, path);
      expect(await shown(anonymous.page, titles), path).toEqual(["all"]);
    }
    const notice = announcements(anonymous.page)
      .getByRole("listitem")
      .filter({ hasText: titles.all });
    await expect(notice).toContainText("Planned maintenance on Sunday night.");
    // In French: its French title, and the English content where no French one was written.
    await visit(anonymous.page, "/about?lang=fr");
    const french = frenchAnnouncements(anonymous.page);
    await expect(french).toContainText(frenchTitle);
    await expect(french).not.toContainText(titles.all);
    await expect(french).toContainText("Planned maintenance on Sunday night.");
    await visit(anonymous.page, "/about?lang=en");
    await expect(notice).toHaveAttribute("data-announcement-type", "warning");
    // Tailwind's yellow-500 bar at the start of the notice.
    await expect(notice).toHaveCSS("border-left-color", "oklch(0.795 0.184 86.047)");
    const headerBox = (await header(anonymous.page).boundingBox())!;
    const noticeBox = (await notice.boundingBox())!;
    expect(noticeBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
    expect(noticeBox.y).toBeLessThan(
      (await anonymous.page.getByRole("heading", { level: 1 }).boundingBox())!.y,
    );

    // A customer: everyone's and the customers' on the dashboard, not the team's.
    const buyer = await signedIn(browser, customer.email, customer.password);
    await visit(buyer.page, "/dashboard");
    expect(await shown(buyer.page, titles)).toEqual(["all", "customers"]);
    await expect(buyer.page.getByText(titles.admins)).toHaveCount(0);
    await visit(buyer.page, "/");
    expect(await shown(buyer.page, titles)).toEqual(["all"]);

    // Switched off, everyone's leaves the (kept) public page at the next visit.
    await visit(admin.page, "/admin/announcements");
    await row(admin.page, titles.all).getByRole("button", { name: "Deactivate" }).click();
    await expect(admin.page.getByText("Announcement updated.")).toBeVisible();
    await visit(anonymous.page, "/about");
    expect(await shown(anonymous.page, titles)).toEqual([]);
    await visit(buyer.page, "/dashboard");
    expect(await shown(buyer.page, titles)).toEqual(["customers"]);
    await anonymous.context.close();
    await buyer.context.close();
  } finally {
    // The e2e server is shared: leave its public pages as they were. After the deactivation the list is
    // already open; after a failure elsewhere it is loaded.
    if (new URL(admin.page.url()).pathname !== "/admin/announcements")
      await visit(admin.page, "/admin/announcements");
    for (const title of Object.values(titles)) {
      const item = row(admin.page, title);
      if (!(await item.count())) continue;
      admin.page.once("dialog", (dialog) => void dialog.accept());
      await item.getByRole("button", { name: "Delete" }).click();
      await expect(admin.page.getByText("Announcement deleted.")).toBeVisible();
      await expect(item).toHaveCount(0);
    }
    await admin.context.close();
  }
});
