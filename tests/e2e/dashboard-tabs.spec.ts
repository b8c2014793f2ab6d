import type { Page } from "@playwright/test";
import { expect, newCustomerSignedIn, noHorizontalScroll, test, visit } from "./fixtures";

// The dashboard's tabs are routes of their own (/dashboard, /dashboard/services, ...): on a phone a
// customer moves across them by tapping, by the keyboard and by the browser's back button, each time on
// the tab's own address with that tab marked as the current page; an older ?tab= address lands there too.

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, locale: "en-US" };

/** Each tab's link name, its address and a text only that tab shows. */
const TABS = [
  { name: "Services", path: "/dashboard/services", shows: "My services" },
  { name: "Domains", path: "/dashboard/domains", shows: "You have no domains." },
  { name: "Billing", path: "/dashboard/billing", shows: "Coin history" },
  { name: "Support", path: "/dashboard/support", shows: "Support tickets" },
  { name: "Account", path: "/dashboard/account", shows: "Sessions" },
  { name: "Referrals", path: "/dashboard/referrals", shows: "Your referral link" },
  { name: "Overview", path: "/dashboard", shows: "Recent activity" },
] as const;

const tabs = (page: Page) => page.getByRole("navigation", { name: "Dashboard sections" });

/** The tab `name` is the one marked as the current page, and the only one. */
async function expectOpen(page: Page, tab: (typeof TABS)[number]) {
  await expect(page).toHaveURL(new RegExp(`${tab.path.replaceAll("/", "\\/")}(\\?|#|$)`));
  await expect(page.getByRole("main").getByText(tab.shows).first()).toBeVisible();
  await expect(tabs(page).locator('[aria-current="page"]')).toHaveText([tab.name]);
  // The cards stay above every tab.
  await expect(page.getByText("Account Credit")).toBeVisible();
  expect(await noHorizontalScroll(page), tab.path).toBe(true);
}

test("a customer moves across the dashboard's tabs on a 390 px phone, each on its own address", async ({
  browser,
}) => {
  const { context, page } = await newCustomerSignedIn(browser, undefined, PHONE);
  await visit(page, "/dashboard");
  await expectOpen(page, TABS[6]);
  // Rows of three: every tab is in sight, none past the screen's edge.
  for (const { name } of TABS) {
    const box = await tabs(page).getByRole("link", { name, exact: true }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x, name).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
  }

  // By tapping, each in turn.
  for (const tab of TABS) {
    await tabs(page).getByRole("link", { name: tab.name, exact: true }).tap();
    await expectOpen(page, tab);
  }

  // By the keyboard: the focused tab's link, followed with Enter.
  await tabs(page).getByRole("link", { name: "Billing", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expectOpen(page, TABS[2]);

  // The browser's back button returns to the tab before, marked as the open one.
  await page.goBack();
  await expectOpen(page, TABS[6]);

  // An older address (a stored notification's, a mail's) lands on the tab's own, its query kept.
  await visit(page, "/dashboard?tab=support&page=1");
  await expect(page).toHaveURL(/\/dashboard\/support\?page=1$/);
  await expectOpen(page, TABS[3]);
  await context.close();
});
