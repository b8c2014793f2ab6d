import { readFileSync } from "node:fs";
import type { Browser, Locator, Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  newCustomerSignedIn,
  registerOverHttp,
  scaled,
  signedIn,
  submitLogin,
  toast,
  visit,
  waitForHydration,
  waitForReactOn,
  expect,
  expectAccessible,
  test,
  type Customer,
} from "./fixtures";
import type enCommonType from "../../app/i18n/locales/en/common.json";
import type enDashboardType from "../../app/i18n/locales/en/dashboard.json";
import { freshTotpCode } from "../support/totp";

// On a phone (360 and 412 px, English, French and Arabic) no page of the customer's path and none of the
// admin's lists scrolls sideways; the header keeps the bell and the balance; the menu opens before (and
// without) JavaScript; the admin's approve button is in view.

/**
 * The narrowest common phone and a large one (the app's CSS has no breakpoint between them: Tailwind's
 * first, `sm`, is 640 px). A page is loaded once and checked at both, resized in place (resizeTo): the
 * browser lays it out again for the new width as it lays out a page loaded at it, and no script of the
 * app lays a page out by the screen's width as it loads.
 */
const WIDTHS = [360, 412] as const;
const LANGUAGES = ["en", "fr", "ar"] as const;
type Language = (typeof LANGUAGES)[number];

/** A new context's screen: a phone `width` px wide. */
function phoneOf(width: number) {
  return { viewport: { width, height: 800 } };
}

function catalogue<T>(lang: string, ns: string): T {
  return JSON.parse(readFileSync(`app/i18n/locales/${lang}/${ns}.json`, "utf8")) as T;
}
const dashboard = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, catalogue<typeof enDashboardType>(lang, "dashboard")]),
) as Record<Language, typeof enDashboardType>;
const common = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, catalogue<typeof enCommonType>(lang, "common")]),
) as Record<Language, typeof enCommonType>;

function inLanguage(path: string, lang: Language) {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${lang}`;
}

/** What a worker's tests share: a customer with a coin history, a pending order and a ticket. */
interface Seeded {
  customer: Customer;
  ticketPath: string;
  /** The customer's order's invoice page. */
  invoicePath: string;
}

/**
 * The admin credits 100 coins (a first line of coin history and an unread notification) through the
 * clients page, and the customer orders (a second line, and an order waiting for approval) and opens a
 * ticket through their forms, as people do. Registering and signing in are not what this file tests:
 * they go over HTTP.
 */
async function seed(browser: Browser): Promise<Seeded> {
  const buyer = await newCustomerSignedIn(browser, { name: "Nadia Telephone" });
  const { customer } = buyer;

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("100");
  await admin.page.getByLabel("Reason").fill("Paid by Orange Money");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");
  // A member of the staff besides the owner, so that the staff page's sweep always has a row with
  // its buttons (other files add members too, but in no order this file can count on).
  const guest = await browser.newContext();
  const member = await registerOverHttp(guest, { name: "Samir Staff" });
  await guest.close();
  const added = await admin.context.request.post("/admin/staff", {
    form: { intent: "add", email: member.email, role: "billing" },
    maxRedirects: 0,
  });
  expect(added.status()).toBe(200);
  await admin.context.close();

  await visit(buyer.page, "/order?product=1");
  await buyer.page.getByLabel("Server name").fill("Phone test server");
  await buyer.page.getByRole("button", { name: "Place order" }).click();
  await expect(buyer.page).toHaveURL(/\/dashboard\/billing$/);
  // The order's invoice, as its page (docs/invoices.md).
  const invoicePath = await buyer.page
    .getByRole("table", { name: "Invoices and receipts" })
    .getByRole("link")
    .first()
    .getAttribute("href");
  await visit(buyer.page, "/support/new?topic=coins");
  await buyer.page.getByLabel("Message").fill("My balance on the phone: 192.168.1.10:7777");
  await buyer.page.getByRole("button", { name: "Open ticket" }).click();
  await expect(buyer.page).toHaveURL(/\/support\/\d+/);
  const ticketPath = new URL(buyer.page.url()).pathname;
  await buyer.context.close();
  return { customer, ticketPath, invoicePath: invoicePath! };
}

let seeded: Seeded | undefined;
test.beforeAll(async ({ browser }, testInfo) => {
  testInfo.setTimeout(scaled(120_000));
  seeded ??= await seed(browser);
});
function data(): Seeded {
  if (!seeded) throw new Error("the customer was not seeded");
  return seeded;
}

/** The seeded customer, signed in (over HTTP) on a phone `width` px wide. */
function customerOn(browser: Browser, width: number) {
  return signedIn(browser, data().customer.email, data().customer.password, phoneOf(width));
}

/** The admin, signed in (over HTTP) on a phone `width` px wide. */
function adminOn(browser: Browser, width: number) {
  return signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, phoneOf(width));
}

/**
 * A customer of a test's own, registered and signed in over HTTP on a phone: an account keeps the
 * language it is last read in, so a test that reads English texts, or switches language, does not
 * share the seeded customer.
 */
function ownCustomerOn(browser: Browser, width: number, name?: string) {
  return newCustomerSignedIn(browser, name ? { name } : undefined, phoneOf(width));
}

/** The page's width beside the screen's, when the page is wider (it scrolls sideways). */
async function overflow(page: Page) {
  const { scroll, client, screen } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    screen: window.innerWidth,
  }));
  return scroll > client
    ? `${page.url()} at ${screen} px: ${scroll} px wide on a ${client} px screen`
    : null;
}

/**
 * Makes the screen `width` px wide without loading the page again, and waits until a frame has been
 * drawn at that width: the widths read after it are the page's new layout, not the old one's.
 */
async function resizeTo(page: Page, width: number) {
  const widthAtNextFrame = () =>
    new Promise<number>((resolve) => requestAnimationFrame(() => resolve(window.innerWidth)));
  await page.setViewportSize({ width, height: page.viewportSize()!.height });
  await expect.poll(() => page.evaluate(widthAtNextFrame)).toBe(width);
}

/**
 * Loads each page once in this language and lists those that scroll sideways at any of `widths` (by
 * default the screen's own), resizing the page in place from one to the next. Each page starts at the
 * width the one before ended at: one resize a page. `atEachWidth` runs a page's own checks at each.
 */
async function pagesWiderThanTheScreen(
  page: Page,
  paths: readonly string[],
  lang: Language,
  widths: readonly number[] = [page.viewportSize()!.width],
  atEachWidth?: (path: string, width: number) => Promise<void>,
) {
  const wide: string[] = [];
  for (const path of paths) {
    const response = await visit(page, inLanguage(path, lang));
    expect(response?.status(), path).toBeLessThan(400);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    const now = page.viewportSize()!.width;
    const order = widths.includes(now) ? [now, ...widths.filter((w) => w !== now)] : widths;
    for (const width of order) {
      if (width !== page.viewportSize()!.width) await resizeTo(page, width);
      const found = await overflow(page);
      if (found) wide.push(found);
      await atEachWidth?.(path, width);
    }
  }
  return wide;
}

/** The dashboard's tabs besides its overview. */
const DASHBOARD_TABS = ["services", "domains", "billing", "support", "account", "referrals"].map(
  (tab) => `/dashboard/${tab}`,
);

/** The customer's path, signed in: the plans, ordering, every dashboard tab, support and coins. */
function customerPaths() {
  return [
    ...["/", "/services/samp", "/game-hosting", "/order?product=1", "/dashboard"],
    ...DASHBOARD_TABS,
    "/support/new",
    data().ticketPath,
    data().invoicePath,
    "/coins",
    "/verify-email",
  ];
}

/** A visitor's part of it: the plans, the order form, logging in and registering. */
const VISITOR_PATHS = [
  "/",
  "/services/samp",
  "/order?product=1",
  "/login",
  "/register",
  "/forgot-password",
  // A link's page renders with a token that does not work: it says so.
  "/reset-password?token=not-a-real-token",
];

/** Every admin list (all built from the kit's DataTable or ListPage). */
const ADMIN_PATHS = [
  "/admin/knowledgebase",
  "/admin/settings/discord",
  "/admin/orders",
  "/admin/orders?status=pending",
  "/admin/clients",
  "/admin/services",
  "/admin/transactions",
  "/admin/invoices",
  "/admin/refunds",
  "/admin/tickets",
  "/admin/tickets/replies",
  "/admin/products",
  "/admin/promotions",
  "/admin/gateways",
  "/admin/logs",
  "/admin/newsletter",
  "/admin/email-marketing",
  "/admin/security",
  "/admin/staff",
  "/admin/reports",
  "/admin/affiliates",
  // Not a list, but its webhook field was a fixed 384 px wide.
  "/admin/automation",
];

/** Whether the box lies within the screen's width (nothing of it off to either side). */
async function expectWithinWidth(locator: Locator, width: number) {
  const box = await locator.boundingBox();
  expect(box, "on the page").not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

// One test a language and audience: each page is loaded once, then checked at each width.
for (const lang of LANGUAGES) {
  test.describe(`in ${lang} at ${WIDTHS.join(" and ")} px`, () => {
    test("a visitor's pages do not scroll sideways", async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext(phoneOf(WIDTHS[0]));
      const page = await context.newPage();
      expect(await pagesWiderThanTheScreen(page, VISITOR_PATHS, lang, WIDTHS)).toEqual([]);
      await context.close();
    });

    test("the customer's path does not scroll sideways", async ({ browser }) => {
      test.setTimeout(120_000);
      const { context, page } = await customerOn(browser, WIDTHS[0]);
      const coins = async (path: string, width: number) => {
        if (path !== "/dashboard/billing") return;
        // The coin history is there, as cards: the first screen after paying.
        const history = page.locator("table").first();
        await expect(history.locator("tbody tr")).toHaveCount(2);
        await expectWithinWidth(history, width);
      };
      const wide = await pagesWiderThanTheScreen(page, customerPaths(), lang, WIDTHS, coins);
      expect(wide).toEqual([]);
      await context.close();
    });

    test("the admin's lists do not scroll sideways", async ({ browser }) => {
      test.setTimeout(120_000);
      const { context, page } = await adminOn(browser, WIDTHS[0]);
      expect(await pagesWiderThanTheScreen(page, ADMIN_PATHS, lang, WIDTHS)).toEqual([]);
      await context.close();
    });
  });
}

test(`at ${WIDTHS.join(" and ")} px the approve and reject buttons of a pending order are in view`, async ({
  browser,
}) => {
  const { customer } = data();
  const { context, page } = await adminOn(browser, WIDTHS[0]);
  await visit(page, "/admin/orders?status=pending");
  const card = page.getByRole("row", {
    name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")),
  });
  const approve = card.getByRole("button", { name: "Approve" });
  const reason = card.getByRole("textbox", { name: /Reason for rejecting order/ });
  for (const width of WIDTHS) {
    await resizeTo(page, width);
    await expect(approve).toBeVisible();
    await expectWithinWidth(approve, width);
    await expect(reason).toHaveAttribute("placeholder", "Reason");
    await expectWithinWidth(card.getByRole("button", { name: "Reject" }), width);
    // The buttons come first in the card: above the order's customer.
    const buttons = (await approve.boundingBox())!;
    const who = (await card.getByText(customer.email).boundingBox())!;
    expect(buttons.y).toBeLessThan(who.y);
    expect(await overflow(page)).toBeNull();
  }
  await context.close();
});

for (const lang of LANGUAGES) {
  test(`in ${lang} the collapsed header keeps the bell with its badge and the balance`, async ({
    browser,
  }) => {
    const width = 360;
    const { context, page } = await customerOn(browser, width);
    await visit(page, inLanguage("/dashboard", lang));
    const banner = page.getByRole("banner");
    const texts = common[lang].nav;
    // The menu is closed and the navigation folded into it; the bell and the balance are in the bar.
    await expect(banner.getByRole("button", { name: texts.openMenu })).toBeVisible();
    await expect(page.locator("#mobile-menu")).toBeHidden();
    const bell = banner.locator('button[aria-haspopup="menu"]');
    await expect(bell).toBeVisible();
    // The badge: one unread notification (the credit), drawn in the bell's corner.
    const badge = bell.locator("[data-count]");
    await expect(badge).toBeVisible();
    await expect(badge).toHaveAttribute("data-count", "1");
    expect(await badge.evaluate((element) => getComputedStyle(element, "::after").content)).toBe(
      '"1"',
    );
    const balance = banner.locator('button[aria-haspopup="dialog"]');
    await expect(balance).toBeVisible();
    await expect(balance).toHaveAttribute("aria-label", /\d/);
    for (const item of [bell, balance]) await expectWithinWidth(item, width);
    if (lang === "en") {
      await expect(bell).toHaveAccessibleName("Notifications: 1 unread");
      await expect(balance).toHaveAccessibleName(/Coin balance: .* coins/);
    }
    // The bell opens its list from the bar (not opened here: that would mark the notification read for
    // the tests that follow), and the balance its dialog.
    await expect(bell).toHaveAttribute("aria-expanded", "false");
    await waitForReactOn(balance);
    await balance.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await context.close();
  });
}

test("on a phone the bell's list opens inside the screen, in English and in Arabic", async ({
  browser,
}) => {
  const width = 360;
  const { context, page } = await ownCustomerOn(browser, width);
  for (const lang of ["en", "ar"] as const) {
    await visit(page, inLanguage("/dashboard", lang));
    // The bell sits mid-bar, with less room on either side than its 320 px list takes.
    const bell = page.getByRole("banner").locator('button[aria-haspopup="menu"]');
    await waitForReactOn(bell);
    await bell.click();
    const menu = page.getByRole("menu");
    await expect(menu).toBeVisible();
    expect((await menu.boundingBox())!.width).toBeGreaterThan(width / 2);
    await expectWithinWidth(menu, width);
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
  }
  await context.close();
});

test("at 360 px a name of 100 letters without a space widens none of its customer's pages", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page, customer } = await ownCustomerOn(browser, 360, "Abcdefghij".repeat(10));
  const paths = [
    "/",
    "/order?product=1",
    "/dashboard",
    ...DASHBOARD_TABS,
    "/support/new",
    "/coins",
  ];
  // The dashboard greets the customer by the whole name.
  const greeting = async (path: string) => {
    if (path === "/dashboard")
      await expect(page.getByRole("heading", { level: 1 })).toContainText(customer.name);
  };
  expect(await pagesWiderThanTheScreen(page, paths, "en", [360], greeting)).toEqual([]);
  await context.close();
});

test("at 360 px a ticket with a word of 5,000 letters widens neither its page nor the admin's", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page } = await ownCustomerOn(browser, 360, "Pasted Log");
  await visit(page, "/support/new");
  await page.getByLabel("Subject").fill("Crash".repeat(30));
  // A pasted log line or address: one word as long as a message may be.
  await page.getByLabel("Message").fill("x".repeat(5000));
  await page.getByRole("button", { name: "Open ticket" }).click();
  await expect(page).toHaveURL(/\/support\/\d+/);
  const ticketPath = new URL(page.url()).pathname;
  // On the ticket in English, the customer can still reply: the box and its button are on the screen.
  const canReply = async (path: string) => {
    if (path !== ticketPath) return;
    const send = page.getByRole("button", { name: "Send reply" });
    await send.scrollIntoViewIfNeeded();
    await expectWithinWidth(send, 360);
  };
  const paths = [ticketPath, "/dashboard/support"];
  for (const lang of LANGUAGES) {
    const check = lang === "en" ? canReply : undefined;
    expect(await pagesWiderThanTheScreen(page, paths, lang, [360], check)).toEqual([]);
  }
  await context.close();

  const admin = await adminOn(browser, 360);
  const adminPaths = [ticketPath.replace("/support/", "/admin/tickets/"), "/admin/tickets"];
  for (const lang of LANGUAGES)
    expect(await pagesWiderThanTheScreen(admin.page, adminPaths, lang)).toEqual([]);
  await admin.context.close();
});

test("at 360 px every dashboard section's link is whole on the screen, in each language", async ({
  browser,
}) => {
  const { context, page } = await customerOn(browser, 360);
  for (const lang of LANGUAGES) {
    await visit(page, inLanguage("/dashboard/account", lang));
    const sections = page
      .getByRole("navigation", { name: dashboard[lang].tabs.label })
      .getByRole("link");
    await expect(sections).toHaveCount(7);
    for (const link of await sections.all()) await expect(link).toBeInViewport({ ratio: 1 });
  }
  await context.close();
});

test("the menu opens and closes with JavaScript off, for a visitor and a customer", async ({
  browser,
}) => {
  const { customer } = data();
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 360, height: 800 },
  });
  const page = await context.newPage();
  await page.goto("/about");
  const banner = page.getByRole("banner");
  const menu = page.locator("#mobile-menu");
  await expect(menu).toBeHidden();
  await banner.getByRole("button", { name: "Open menu" }).click();
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("link", { name: "Login", exact: true })).toBeVisible();
  expect(await overflow(page)).toBeNull();
  // The same button closes it.
  await banner.getByRole("button", { name: "Open menu" }).click();
  await expect(menu).toBeHidden();
  await banner.getByRole("button", { name: "Open menu" }).click();
  await menu.getByRole("link", { name: "Contact", exact: true }).click();
  await expect(page).toHaveURL(/\/contact$/);

  // A customer's pages hydrate with React: before it has run (here: never), the menu still opens.
  await page.goto("/login");
  await page.getByLabel("Email", { exact: true }).fill(customer.email);
  await page.getByLabel("Password", { exact: true }).fill(customer.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  // Earlier tests opened this customer's pages with ?lang=ar and ?lang=fr, which a signed-in customer's
  // account keeps: back to English, which this test reads.
  await page.goto("/dashboard?lang=en");
  const balance = banner.locator('button[aria-haspopup="dialog"]');
  const bell = banner.locator('button[aria-haspopup="menu"]');
  await expect(balance).toBeVisible();
  await expect(bell).toBeVisible();
  await banner.getByRole("button", { name: "Open menu" }).click();
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("link", { name: "Dashboard", exact: true })).toBeVisible();
  await expect(menu.getByRole("button", { name: "Logout" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  // The bell's list and the coin dialog open too (ADR 50), inside the screen.
  await bell.click();
  await expect(page.getByRole("menu")).toBeVisible();
  expect(await overflow(page)).toBeNull();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await balance.click();
  await expect(page.getByRole("dialog", { name: "Buy coins" })).toBeVisible();
  expect(await overflow(page)).toBeNull();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await context.close();
});

test("with JavaScript a visitor's navigation sits behind the menu button", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  await visit(page, "/");
  const banner = page.getByRole("banner");
  // The wide screen's navigation and account links are hidden.
  await expect(banner.locator("nav").first()).toBeHidden();
  await expect(banner.getByRole("link", { name: "Login", exact: true })).toHaveCount(0);
  await banner.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("navigation", { name: "Main navigation" });
  await expect(menu).toBeVisible();
  for (const name of ["Home", "About", "Contact", "Login", "Register"])
    await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(banner.getByRole("button", { name: "Close menu" })).toBeVisible();
  await expectAccessible(page);
  await context.close();
});

test("with JavaScript the menu names its state and closes when a link is followed", async ({
  browser,
}) => {
  const { context, page } = await customerOn(browser, 360);
  // In English, which this test reads: the customer's account keeps the language it was last read in.
  await visit(page, "/dashboard?lang=en");
  const banner = page.getByRole("banner");
  const menu = page.locator("#mobile-menu");
  const open = banner.getByRole("button", { name: "Open menu" });
  await waitForReactOn(open);
  await expect(open).toHaveAttribute("aria-expanded", "false");
  await open.click();
  await expect(menu).toBeVisible();
  const close = banner.getByRole("button", { name: "Close menu" });
  await expect(close).toHaveAttribute("aria-expanded", "true");
  await expectAccessible(page);
  // Right under the header.
  const bar = (await banner.boundingBox())!;
  const box = (await menu.boundingBox())!;
  expect(Math.abs(box.y - (bar.y + bar.height))).toBeLessThanOrEqual(1);
  await menu.getByRole("link", { name: "Contact", exact: true }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(menu).toBeHidden();
  await expect(banner.getByRole("button", { name: "Open menu" })).toHaveAttribute(
    "aria-expanded",
    "false",
  );
  await context.close();
});

test("with JavaScript the menu closes when signing out from it moves to the home page", async ({
  browser,
}) => {
  const { context, page } = await ownCustomerOn(browser, 390, "Nadia Sortie");
  await visit(page, "/dashboard?lang=ar");
  const banner = page.getByRole("banner");
  const menu = page.locator("#mobile-menu");
  const open = banner.locator('button[popovertarget="mobile-menu"]');
  await waitForReactOn(open);
  await open.click();
  await expect(menu).toBeVisible();
  await menu.getByRole("button", { name: common.ar.nav.logout }).click();
  await expect(page).toHaveURL(/\/(\?.*)?$/);
  await expect(toast(page, common.ar.toast.loggedOut)).toBeVisible();
  await expect(menu).toBeHidden();
  await expect(open).toHaveAttribute("aria-expanded", "false");
  await context.close();
});

/** The toast's top is under the header's bottom: it covers neither the bell nor the balance. */
async function expectUnderTheHeader(page: Page) {
  const header = (await page.getByRole("banner").boundingBox())!;
  const shown = (await page.locator("[data-toast]").first().boundingBox())!;
  expect(shown.y).toBeGreaterThanOrEqual(header.y + header.height);
}

test("a toast's close button is 44 px, with React and without, under the header", async ({
  browser,
}) => {
  const context = await browser.newContext(phoneOf(360));
  const { email, password } = await registerOverHttp(context, { name: "Nadia Toast" });
  // Signing in says so in a toast (toaster.tsx's, on the hydrated dashboard it leads to): the login
  // form's post over HTTP, as signInOverHttp sends it, keeping the toast it flashes (which that drops).
  const signIn = await context.request.post("/login", {
    form: { email, password },
    maxRedirects: 0,
  });
  expect(signIn.headers()["location"]).toMatch(/^\/dashboard/);
  const page = await context.newPage();
  await visit(page, "/dashboard");
  await expect(toast(page, "Login successful!")).toBeVisible();
  await expectUnderTheHeader(page);
  const reactClose = page.locator("[data-toast] [data-toast-close]").first();
  const hydrated = (await reactClose.boundingBox())!;
  // 44 CSS px, measured through a translateY(-50%): the box can read 43.99999 on a sub-pixel position.
  expect(Math.round(hydrated.width)).toBeGreaterThanOrEqual(44);
  expect(Math.round(hydrated.height)).toBeGreaterThanOrEqual(44);
  await expectWithinWidth(reactClose, 360);
  // Logged out, the page is served without React: the flashed toast is the static toaster's.
  await page.request.post("/logout", { maxRedirects: 0 });
  await visit(page, "/about");
  await expect(toast(page, "Logged out successfully")).toBeVisible();
  await expectUnderTheHeader(page);
  const staticClose = page.locator("[data-toast] [data-toast-close]").first();
  const served = (await staticClose.boundingBox())!;
  expect(served.width).toBeGreaterThanOrEqual(44);
  expect(served.height).toBeGreaterThanOrEqual(44);
  await staticClose.click();
  await expect(toast(page, "Logged out successfully")).toHaveCount(0);
  await context.close();
});

// The account's security pages on a 390 x 844 phone: the login's code step, the password and address
// links, and the account tab's two-factor card in each of its states. None scrolls sideways, and every
// control in the page's content is at least the 24 x 24 px target WCAG 2.2 asks for (a checkbox with
// its label).
const PHONE = { width: 390, height: 844 };

/** Buttons and fields smaller than 24 x 24 px in `within` (a selector), with their size. */
async function smallTargets(page: Page, within: string) {
  return page.evaluate((within) => {
    const root = document.querySelector(within);
    if (!root) return [`nothing matches ${within} on ${location.pathname}${location.search}`];
    return [
      ...root.querySelectorAll(
        ":is(button, input:not([type=hidden]), select, textarea, [role=switch], [role=checkbox])",
      ),
    ].flatMap((element) => {
      const own = element.getBoundingClientRect();
      if (own.width === 0 || own.height === 0) return [];
      // A checkbox's label is its target too (a tap on it ticks the box): measured together.
      const labels =
        element instanceof HTMLInputElement && /^(checkbox|radio)$/.test(element.type)
          ? [...(element.labels ?? [])].map((label) => label.getBoundingClientRect())
          : [];
      const left = Math.min(own.left, ...labels.map((box) => box.left));
      const top = Math.min(own.top, ...labels.map((box) => box.top));
      const box = {
        width: Math.max(own.right, ...labels.map((box) => box.right)) - left,
        height: Math.max(own.bottom, ...labels.map((box) => box.bottom)) - top,
      };
      if (box.width >= 24 && box.height >= 24) return [];
      const name = element.getAttribute("aria-label") ?? element.textContent?.trim() ?? "";
      return [
        `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} "${name}": ${Math.round(box.width)} x ${Math.round(box.height)} px on ${location.pathname}${location.search}`,
      ];
    });
  }, within);
}

/**
 * Overflow and small targets of the page as it is now: the targets of `within`, the page's content or
 * the part of it under test.
 */
async function phoneProblems(page: Page, within = "main") {
  const problems = await smallTargets(page, within);
  const wide = await overflow(page);
  return wide ? [wide, ...problems] : problems;
}

/**
 * Loads each page in each language (each lays its text out at its own width) and lists what does not
 * fit a phone. `languages` orders them: the page a test goes on with is the last one loaded.
 */
async function phonePagesProblems(
  page: Page,
  paths: readonly string[],
  within = "main",
  languages: readonly Language[] = LANGUAGES,
) {
  const problems: string[] = [];
  for (const lang of languages)
    for (const path of paths) {
      await visit(page, inLanguage(path, lang));
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      problems.push(...(await phoneProblems(page, within)));
    }
  return problems;
}

test("at 390 px the password and address links' pages fit the phone", async ({ browser }) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  expect(
    await phonePagesProblems(page, [
      "/forgot-password",
      "/reset-password?token=not-a-real-token",
      "/verify-email?token=not-a-real-token",
    ]),
  ).toEqual([]);
  await context.close();
});

test("at 390 px the order form, coins, a ticket and the admin's lists have no target under 24 px", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { ticketPath } = data();
  const buyer = await customerOn(browser, PHONE.width);
  expect(
    await phonePagesProblems(buyer.page, [
      "/order?product=1",
      "/dashboard/top-up",
      ticketPath,
      "/dashboard/billing",
    ]),
  ).toEqual([]);
  await buyer.context.close();
  const admin = await adminOn(browser, PHONE.width);
  expect(
    await phonePagesProblems(admin.page, [
      "/admin/clients",
      ticketPath.replace("/support/", "/admin/tickets/"),
      "/admin/orders",
      "/admin/top-ups",
      "/admin/promotions?edit=new",
    ]),
  ).toEqual([]);
  await admin.context.close();
});

test("at 390 px the two-factor card and the login's code step fit the phone", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page, customer } = await newCustomerSignedIn(
    browser,
    { name: "Nadia Deux Facteurs" },
    { viewport: PHONE },
  );
  const card = page.locator("#two-factor");
  const account = ["/dashboard/account"];
  const problems: string[] = [];

  // Off, then set up (the QR code and the key, kept while the set-up waits), in every language.
  // The tab's other cards are not under test here: the targets are the two-factor card's. The tab in
  // English comes last: the set-up goes on from it.
  problems.push(...(await phonePagesProblems(page, ["/verify-email"])));
  const englishLast = [...LANGUAGES].reverse();
  problems.push(...(await phonePagesProblems(page, account, "#two-factor", englishLast)));
  await waitForHydration(page);
  await card.getByLabel("Current password", { exact: true }).fill(customer.password);
  await card.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const secret = (await card.getByTestId("two-factor-secret").innerText()).replace(/\s/g, "");
  problems.push(...(await phonePagesProblems(page, account, "#two-factor")));
  await expect(card.getByTestId("two-factor-secret")).toBeVisible();
  await expectWithinWidth(card.getByTestId("two-factor-secret"), PHONE.width);

  // On, with the backup codes shown once.
  await visit(page, "/dashboard/account?lang=en#two-factor");
  await waitForHydration(page);
  await card.getByLabel("Code from your app", { exact: true }).fill(await freshTotpCode(secret));
  await card.getByRole("button", { name: "Turn on", exact: true }).click();
  await expect(card.getByTestId("backup-codes").getByRole("listitem")).toHaveCount(10);
  problems.push(...(await phoneProblems(page, "#two-factor")));
  await expectWithinWidth(card.getByTestId("backup-codes"), PHONE.width);
  problems.push(...(await phonePagesProblems(page, account, "#two-factor")));

  // The code step, for the app's code and for a backup code, with "trust this device".
  await page.request.post("/logout", { maxRedirects: 0 });
  await visit(page, "/login?lang=en");
  await submitLogin(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/login\?step=code/);
  await expect(page.getByLabel("Trust this device for 30 days")).toBeVisible();
  problems.push(...(await phonePagesProblems(page, ["/login?step=code", "/login?step=backup"])));
  expect(problems).toEqual([]);
  await context.close();
});
