import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  registerOverHttp,
  signedIn,
  signInOverHttp,
  submitLogin,
  visit,
  waitForPage,
  waitForReactOn,
  expect,
  test,
  noHorizontalScroll,
} from "./fixtures";
import type arCommonType from "../../app/i18n/locales/ar/common.json";
import type arSiteType from "../../app/i18n/locales/ar/site.json";

/** Texts straight from the catalogues, so a reworded translation does not break these tests. */
function catalogue<T>(lang: string, ns: string): T {
  return JSON.parse(readFileSync(`app/i18n/locales/${lang}/${ns}.json`, "utf8")) as T;
}
const arCommon = catalogue<typeof arCommonType>("ar", "common");
const arSite = catalogue<typeof arSiteType>("ar", "site");
const enCommon = catalogue<typeof arCommonType>("en", "common");
const frSite = catalogue<typeof arSiteType>("fr", "site");
const arAdmin = catalogue<{ shell: { openMenu: string; title: string } }>("ar", "admin");

/** The site header's first item (the logo and name) and what follows it on that row. */
async function headerBoxes(page: Page, width: number) {
  const header = page.locator("header").first();
  const logo = await header.getByRole("link").first().boundingBox();
  // Wide: the main navigation; narrow: the menu button (the navigation folds into it).
  const next =
    width >= 768
      ? await header.getByRole("navigation").first().boundingBox()
      : await header.locator('button[aria-controls="mobile-menu"]').boundingBox();
  return { logo: logo!, next: next! };
}

for (const width of [375, 1280]) {
  test(`Arabic pages are right to left without a horizontal scrollbar at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of [
      "/?lang=ar",
      "/order?lang=ar",
      "/login?lang=ar",
      "/services/samp?lang=ar",
    ]) {
      await visit(page, path);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.locator("html")).toHaveAttribute("lang", "ar");
      expect(await noHorizontalScroll(page), path).toBe(true);
      // The header's first item (the site name) sits on the right, before (right of) the navigation.
      const { logo, next } = await headerBoxes(page, width);
      expect(logo.x + logo.width / 2, path).toBeGreaterThan(width / 2);
      expect(logo.x, path).toBeGreaterThan(next.x);
    }
  });
}

test("menus open right to left in Arabic", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await visit(page, "/?lang=ar");
  const trigger = page.getByRole("banner").getByRole("button", { name: arCommon.nav.services });
  const t = (await trigger.boundingBox())!;
  await trigger.click();
  await expect(trigger).toHaveAttribute("aria-expanded", "true");
  const menu = page.locator("#services-menu");
  await expect(menu.getByRole("link", { name: arCommon.nav.sampHosting })).toBeVisible();
  expect(await menu.evaluate((element) => getComputedStyle(element).direction)).toBe("rtl");
  // Aligned to the trigger's start, which is its right edge in Arabic.
  const m = (await menu.boundingBox())!;
  expect(Math.abs(m.x + m.width - (t.x + t.width))).toBeLessThan(2);
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();
});

test("the same pages in English stay left to right", async ({ page }) => {
  await visit(page, "/login?lang=en");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  const { logo, next } = await headerBoxes(page, 1280);
  expect(logo.x).toBeLessThan(next.x);
});

test("switching language keeps the page and changes its texts", async ({ page }) => {
  await visit(page, "/about");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About us");
  await page.locator("#language-footer").selectOption("fr");
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(frSite.about.title);
  // The header's switcher does the same (the page reloaded: wait until it reacts to a change).
  await waitForPage(page);
  await page.locator("#language-header").selectOption("ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(arSite.about.title);
});

test("the mobile menu's switcher keeps the page too", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await visit(page, "/contact?x=1");
  await page.locator('button[aria-controls="mobile-menu"]').click();
  await page.locator("#language-mobile").selectOption("fr");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page).toHaveURL(/\/contact\?x=1$/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the switcher still works", async ({ page }) => {
    await page.goto("/about");
    await page.locator("#language-footer").selectOption("ar");
    await page.locator("footer").getByRole("button", { name: enCommon.language.apply }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  });
});

test.describe("a French browser", () => {
  test.use({ locale: "fr-FR", extraHTTPHeaders: { "Accept-Language": "fr-FR,fr;q=0.9" } });
  test("gets French without asking", async ({ page }) => {
    await visit(page, "/");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("link", { name: "Connexion" }).first()).toBeVisible();
  });
});

test("a customer's saved language follows them to another browser", async ({ page, browser }) => {
  const customer = await registerOverHttp(page);
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  await visit(page, "/dashboard");
  await page.locator("#language-footer").selectOption("ar");
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  // Another browser, English by its Accept-Language and without the language cookie. Its sign-in goes
  // through the form: what the account's language does to the page signing in leads to is the subject.
  const context = await browser.newContext({
    locale: "en-US",
    extraHTTPHeaders: { "Accept-Language": "en-US,en;q=0.9" },
  });
  const other = await context.newPage();
  await visit(other, "/login");
  await expect(other.locator("html")).toHaveAttribute("lang", "en");
  await submitLogin(other, customer.email, customer.password);
  await expect(other).toHaveURL(/\/dashboard/);
  await expect(other.locator("html")).toHaveAttribute("lang", "ar");
  await expect(other.locator("html")).toHaveAttribute("dir", "rtl");
  // The account's language wins over the browser's for the page the login leads to.
  await expect(other.getByRole("heading", { level: 1 })).toContainText(
    arCommon.dashboard.welcome.split("{{")[0]!.trim(),
  );
  await visit(other, "/about");
  await expect(other.getByRole("heading", { level: 1 })).toHaveText(arSite.about.title);
  // The coin dialog mirrors: its close button sits on the left, and it stays on the screen.
  const coins = other.getByRole("banner").locator('[aria-haspopup="dialog"]');
  await waitForReactOn(coins);
  await coins.click();
  const dialog = other.getByRole("dialog");
  const box = (await dialog.boundingBox())!;
  const close = (await dialog.getByRole("button", { name: arCommon.coins.close }).boundingBox())!;
  expect(close.x + close.width / 2).toBeLessThan(box.x + box.width / 2);
  expect(box.x).toBeGreaterThanOrEqual(0);
  await other.keyboard.press("Escape");
  // Toasts speak Arabic and lay out right to left too.
  await other.getByRole("banner").getByRole("button", { name: arCommon.nav.logout }).click();
  await expect(
    other.locator('[data-toaster][dir="rtl"]').getByText(arCommon.toast.loggedOut),
  ).toBeVisible();
  await context.close();
});

test("every public page lists its other languages for search engines", async ({
  page,
  baseURL,
}) => {
  for (const path of ["/", "/services/vps", "/login"]) {
    await page.goto(`${path}?lang=fr`);
    const links = await page
      .locator('head link[rel="alternate"][hreflang]')
      .evaluateAll((nodes) =>
        nodes.map((n) => `${n.getAttribute("hreflang")} ${n.getAttribute("href")}`),
      );
    expect(links).toEqual([
      `en ${baseURL}${path}?lang=en`,
      `fr ${baseURL}${path}?lang=fr`,
      `ar ${baseURL}${path}?lang=ar`,
      `x-default ${baseURL}${path}`,
    ]);
  }
});

test("the admin clients page in Arabic mirrors the shell", async ({ browser }) => {
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await visit(page, "/admin/clients?lang=ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    expect(await noHorizontalScroll(page), `${width}px`).toBe(true);
    if (width === 1280) {
      const sidebar = await page.getByRole("navigation", { name: /./ }).first().boundingBox();
      expect(sidebar!.x).toBeGreaterThan(width / 2);
    } else {
      // The phone's drawer comes from the start side: the right, flush with the screen's edge.
      const menu = page.getByRole("button", { name: arAdmin.shell.openMenu });
      await waitForReactOn(menu);
      await menu.click();
      const drawer = page.getByRole("dialog", { name: arAdmin.shell.title });
      await expect(drawer).toBeVisible();
      await expect
        .poll(async () => {
          const box = (await drawer.boundingBox())!;
          return Math.round(box.x + box.width);
        })
        .toBe(width);
      // Not the whole width: the page shows (dimmed) on its left.
      expect((await drawer.boundingBox())!.x).toBeGreaterThan(0);
      await page.keyboard.press("Escape");
      await expect(drawer).toBeHidden();
      await expect(menu).toBeFocused();
    }
  }
  await context.close();
});
