import { expect, test, type Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  registerCustomer,
  signedIn,
  submitLogin,
  visit,
} from "./fixtures";

async function noHorizontalScroll(page: Page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  );
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
      // The header's first item (the site name) sits on the right.
      const logo = await page.locator("header a").first().boundingBox();
      expect(logo!.x + logo!.width / 2, path).toBeGreaterThan(width / 2);
    }
  });
}

test("switching language keeps the page and changes its texts", async ({ page }) => {
  await visit(page, "/about");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About us");
  await page.locator("#language-footer").selectOption("fr");
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("About us");
  await page.locator("#language-footer").selectOption("ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page).toHaveURL(/\/about$/);
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
  const customer = await registerCustomer(page);
  await submitLogin(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/dashboard/);
  await page.locator("#language-footer").selectOption("ar");
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  const other = await signedIn(browser, customer.email, customer.password);
  await visit(other.page, "/dashboard");
  await expect(other.page.locator("html")).toHaveAttribute("lang", "ar");
  await expect(other.page.getByRole("heading", { level: 1 })).toContainText("مرحبًا");
  await other.context.close();
});

test("every public page lists its other languages for search engines", async ({ request }) => {
  const html = await (await request.get("/services/vps")).text();
  for (const lang of ["en", "fr", "ar", "x-default"]) expect(html).toContain(`hrefLang="${lang}"`);
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
    }
  }
  await context.close();
});
