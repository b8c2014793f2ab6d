import { readFileSync } from "node:fs";
import type { Browser, Locator, Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  header,
  holdScripts,
  newCustomerSignedIn,
  signedIn,
  test,
  visit,
  waitForHydration,
  waitForReactOn,
} from "./fixtures";

// The header's menus and dialogs open with a tap made before the page's scripts have run (ADR 50): the
// bell, the coin dialog, the admin's account menu and the admin's drawer. The page's script files are
// held back (holdScripts) until the test lets them go, to see React take over what the browser opened.

function catalogue<T>(lang: string, ns: string): T {
  return JSON.parse(readFileSync(`app/i18n/locales/${lang}/${ns}.json`, "utf8")) as T;
}
const admin = {
  en: catalogue<{ shell: { openMenu: string; title: string } }>("en", "admin"),
  ar: catalogue<{ shell: { openMenu: string; title: string } }>("ar", "admin"),
};
const arCommon = catalogue<{ nav: { notificationsCount_zero: string; noNotifications: string } }>(
  "ar",
  "common",
);

/** A phone's screen, `width` px wide. */
const phone = (width: number) => ({ viewport: { width, height: 800 } });

/** Whether React has hydrated the page (it notes its root on the document). */
function reactRan(page: Page) {
  return page.evaluate(() =>
    Object.keys(document).some((key) => key.startsWith("__reactContainer$")),
  );
}

/** Whether the page scrolls sideways. */
function scrollsSideways(page: Page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
}

async function expectWithinWidth(locator: Locator, width: number) {
  const box = (await locator.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

/** The admin credits the customer's coins through the clients page: one unread notification for them. */
async function credit(browser: Browser, email: string) {
  const staff = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(staff.page, `/admin/clients?q=${encodeURIComponent(email)}`);
  await staff.page.getByText("Add or remove coins").click();
  await staff.page.getByLabel("Amount (negative removes)").fill("25");
  await staff.page.getByLabel("Reason").fill("Paid by Orange Money");
  await staff.page.getByRole("button", { name: "Save" }).click();
  await expect(staff.page.getByRole("status")).toHaveText("Coins updated successfully");
  await staff.context.close();
}

test("before the scripts run, a customer's bell opens its list; opened as React arrives, it is marked read", async ({
  browser,
}) => {
  const { context, page, customer } = await newCustomerSignedIn(browser, { name: "Nadia Avant" });
  await credit(browser, customer.email);
  const scripts = await holdScripts(page);
  await page.goto("/dashboard", { waitUntil: "commit" });
  const bell = header(page).getByRole("button", { name: "Notifications: 1 unread" });
  await expect(bell).toBeVisible();
  expect(scripts.count()).toBeGreaterThan(0);
  expect(await reactRan(page)).toBe(false);
  // The browser says whether it is open until React does.
  await expect(bell).not.toHaveAttribute("aria-expanded");

  await bell.click();
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  await expect(
    menu.getByRole("menuitem", { name: /25\.00 coins were added to your balance/ }),
  ).toHaveAttribute("href", /./);
  // Under the bell, on its end side (its right here), as once React runs.
  const bellBox = (await bell.boundingBox())!;
  const menuBox = (await menu.boundingBox())!;
  expect(menuBox.y).toBeGreaterThanOrEqual(bellBox.y + bellBox.height);
  expect(Math.abs(menuBox.x + menuBox.width - (bellBox.x + bellBox.width))).toBeLessThanOrEqual(1);
  // The browser closes it on Escape and on a tap elsewhere.
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await bell.click();
  await expect(menu).toBeVisible();
  await page.mouse.click(5, 600);
  await expect(menu).toBeHidden();

  // Open as React arrives: React says so, and marks the list read as it would have on opening it.
  await bell.click();
  await expect(menu).toBeVisible();
  await scripts.release();
  await waitForHydration(page);
  const read = header(page).getByRole("button", { name: "Notifications: 0 unread" });
  await expect(read).toHaveAttribute("aria-expanded", "true");
  await expect(menu).toBeVisible();
  await page.mouse.click(5, 600);
  await expect(menu).toBeHidden();
  await expect(read).toHaveAttribute("aria-expanded", "false");
  // On the server too: the next page says so.
  await visit(page, "/dashboard");
  await expect(header(page).getByRole("button", { name: "Notifications: 0 unread" })).toBeVisible();
  await context.close();
});

test("before the scripts run, the bell's list on an Arabic phone opens inside the screen", async ({
  browser,
}) => {
  const { context, page } = await newCustomerSignedIn(browser, { name: "Nadia Arabe" }, phone(360));
  const scripts = await holdScripts(page);
  await page.goto("/dashboard?lang=ar", { waitUntil: "commit" });
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  const bell = header(page).getByRole("button", { name: arCommon.nav.notificationsCount_zero });
  for (const width of [360, 412]) {
    await page.setViewportSize({ width, height: 800 });
    await bell.click();
    const menu = page.getByRole("menu");
    await expect(menu.getByText(arCommon.nav.noNotifications)).toBeVisible();
    await expectWithinWidth(menu, width);
    expect(await scrollsSideways(page)).toBe(false);
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
  }
  await scripts.release();
  await context.close();
});

test("before the scripts run, the coin button opens the coin dialog, modal; React takes it over", async ({
  browser,
}) => {
  const { context, page } = await newCustomerSignedIn(
    browser,
    { name: "Nadia Pieces" },
    phone(360),
  );
  const scripts = await holdScripts(page);
  await page.goto("/dashboard", { waitUntil: "commit" });
  expect(await reactRan(page)).toBe(false);
  const button = header(page).getByRole("button", { name: /^Coin balance:/ });
  await button.click();
  const dialog = page.getByRole("dialog", { name: "Buy coins" });
  await expect(dialog).toBeVisible();
  // Modal, as once React runs: the page behind is inert.
  expect(await dialog.evaluate((element) => element.matches(":modal"))).toBe(true);
  await expect(dialog).toContainText("Your balance: 0.00 coins");
  await expect(dialog.getByRole("link", { name: "Open a support ticket" })).toHaveAttribute(
    "href",
    "/support/new?topic=coins",
  );
  await expectWithinWidth(dialog, 360);
  expect(await scrollsSideways(page)).toBe(false);
  // Its close button, Escape and a tap outside it close it.
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await button.click();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await button.click();
  await page.mouse.click(180, 4);
  await expect(dialog).toBeHidden();

  // Open as React arrives: React's from then on (the page kept still, Escape gives the focus back).
  await button.click();
  await expect(dialog).toBeVisible();
  await scripts.release();
  await waitForHydration(page);
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.documentElement).overflowY))
    .toBe("hidden");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await context.close();
});

test("where the browser knows popovers but not commands, the coin dialog opens as a popover, then React makes it modal", async ({
  browser,
}) => {
  const { context, page } = await newCustomerSignedIn(browser, { name: "Nadia Ancien" });
  const scripts = await holdScripts(page);
  await page.goto("/dashboard", { waitUntil: "commit" });
  // Such a browser (Safari 17 and 18) ignores commandfor: the same page without it.
  await page.evaluate(() =>
    document.querySelectorAll("[commandfor]").forEach((element) => {
      element.removeAttribute("commandfor");
      element.removeAttribute("command");
    }),
  );
  const button = header(page).getByRole("button", { name: /^Coin balance:/ });
  const dialog = page.getByRole("dialog", { name: "Buy coins" });
  await button.click();
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => element.matches(":popover-open"))).toBe(true);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await button.click();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await button.click();
  await expect(dialog).toBeVisible();
  await scripts.release();
  await waitForHydration(page);
  await expect.poll(() => dialog.evaluate((element) => element.matches(":modal"))).toBe(true);
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  await context.close();
});

test("before the scripts run, the admin's account menu and bell open, and the menu signs out", async ({
  browser,
}) => {
  const { context, page } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const scripts = await holdScripts(page);
  await page.goto("/admin", { waitUntil: "commit" });
  expect(await reactRan(page)).toBe(false);
  const trigger = page.getByRole("button", { name: "Account menu" });
  await trigger.click();
  const account = page.getByRole("menu", { name: "Account menu" });
  await expect(account.getByText(ADMIN_EMAIL)).toBeVisible();
  await expect(account.getByRole("menuitem", { name: "Settings" })).toHaveAttribute(
    "href",
    "/admin/settings",
  );
  // Under its trigger, on its end side.
  const triggerBox = (await trigger.boundingBox())!;
  const accountBox = (await account.boundingBox())!;
  expect(accountBox.y).toBeGreaterThanOrEqual(triggerBox.y + triggerBox.height);
  expect(
    Math.abs(accountBox.x + accountBox.width - (triggerBox.x + triggerBox.width)),
  ).toBeLessThanOrEqual(1);
  // The bell beside it opens its list (and the account menu closes: one menu at a time). Not opened
  // as React arrives: that would mark the shared admin's notifications read for the tests beside this.
  await page.getByRole("button", { name: /^Notifications: \d+ unread$/ }).click();
  await expect(page.getByRole("menu", { name: /^Notifications/ })).toBeVisible();
  await expect(account).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);

  // Logout is a form's button: it posts without a script.
  await trigger.click();
  await account.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(header(page).getByRole("link", { name: "Login", exact: true })).toBeVisible();
  await scripts.release();
  await context.close();
});

for (const lang of ["en", "ar"] as const) {
  test(`before the scripts run, the admin's drawer opens on a phone from the start side (${lang})`, async ({
    browser,
  }) => {
    const width = 375;
    const { context, page } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, phone(width));
    const scripts = await holdScripts(page);
    // An admin's ?lang= previews the page in that language; their own stays.
    await page.goto(`/admin/clients?lang=${lang}`, { waitUntil: "commit" });
    expect(await reactRan(page)).toBe(false);
    const open = page.getByRole("button", { name: admin[lang].shell.openMenu });
    await open.click();
    const drawer = page.getByRole("dialog", { name: admin[lang].shell.title });
    await expect(drawer).toBeVisible();
    expect(await drawer.evaluate((element) => element.matches(":modal"))).toBe(true);
    // Flush with the start side (the right in Arabic) once it has slid in; the page shows beside it.
    await expect
      .poll(async () => {
        const box = (await drawer.boundingBox())!;
        return Math.round(lang === "ar" ? box.x + box.width : box.x);
      })
      .toBe(lang === "ar" ? width : 0);
    expect((await drawer.boundingBox())!.width).toBeLessThan(width);
    expect(await scrollsSideways(page)).toBe(false);
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();

    // Its links lead on, as page loads.
    await open.click();
    await drawer.locator('a[href="/admin/tickets"]').click();
    await expect(page).toHaveURL(/\/admin\/tickets(\?|$)/);
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // (The link keeps no preview language: the page again in the one under test.)
    await page.goto(`/admin/tickets?lang=${lang}`, { waitUntil: "commit" });
    // Open as React arrives: React's from then on (Escape gives the focus back to its button).
    await open.click();
    await expect(drawer).toBeVisible();
    await scripts.release();
    await waitForHydration(page);
    await expect(open).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(open).toBeFocused();
    await context.close();
  });
}

test("once React runs, the account menu keeps the menu button's keyboard and its place", async ({
  browser,
}) => {
  const { context, page } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin");
  const trigger = page.getByRole("button", { name: "Account menu" });
  await waitForReactOn(trigger);
  await expect(trigger).toHaveAttribute("aria-expanded", "false");
  const menu = page.getByRole("menu", { name: "Account menu" });
  const item = (name: string) => menu.getByRole("menuitem", { name });

  // From the keyboard: the first item takes the focus; arrows, Home and End move; Escape gives it back.
  await trigger.focus();
  await page.keyboard.press("Enter");
  await expect(item("My account")).toBeFocused();
  await expect(trigger).toHaveAttribute("aria-expanded", "true");
  await expect(trigger).toHaveAttribute("aria-controls", (await menu.getAttribute("id"))!);
  await page.keyboard.press("ArrowDown");
  await expect(item("Settings")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(item("Logout")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(item("My account")).toBeFocused();
  await page.keyboard.press("End");
  await expect(item("Logout")).toBeFocused();
  await page.keyboard.press("Home");
  await expect(item("My account")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();
  await expect(trigger).toHaveAttribute("aria-expanded", "false");
  // ArrowUp opens it on the last item; Tab closes it.
  await page.keyboard.press("ArrowUp");
  await expect(item("Logout")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(menu).toBeHidden();
  await expect(trigger).toHaveAttribute("aria-expanded", "false");

  // With a pointer: the menu itself takes the focus, under its trigger on its end side; a press
  // elsewhere closes it.
  await trigger.click();
  await expect(menu).toBeFocused();
  const triggerBox = (await trigger.boundingBox())!;
  const menuBox = (await menu.boundingBox())!;
  expect(menuBox.y).toBeGreaterThanOrEqual(triggerBox.y + triggerBox.height);
  expect(
    Math.abs(menuBox.x + menuBox.width - (triggerBox.x + triggerBox.width)),
  ).toBeLessThanOrEqual(1);
  await page.mouse.click(5, 600);
  await expect(menu).toBeHidden();
  await expect(trigger).toHaveAttribute("aria-expanded", "false");
  // Space opens it too, and the same button closes it.
  await trigger.focus();
  await page.keyboard.press(" ");
  await expect(item("My account")).toBeFocused();
  await trigger.click();
  await expect(menu).toBeHidden();
  await context.close();
});
