import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  header,
  newCustomerSignedIn,
  signedIn,
  test,
  visit,
  waitForPage,
} from "./fixtures";

// Node's and Chromium's tables name some countries differently: Node says "R.A.S. chinoise de Hong Kong"
// and "هونغ كونغ الصينية (منطقة إدارية خاصة)" where Chromium says "Hong Kong" and "هونغ كونغ". A
// country select shows the names its loader made on the server, so hydrating changes no word and a page
// React draws in the browser names the countries as a page served whole does.

const LOCALES = ["fr", "ar"] as const;

/** Console errors (React's hydration mismatch among them) and uncaught errors of the page. */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** Hong Kong's name in the select `name`, as the page shows it now. */
function hongKong(page: Page, name: string) {
  return page.locator(`select[name="${name}"] option[value="HK"]`).textContent();
}

/** Hong Kong's name as the browser's own tables give it. */
function browserName(page: Page, locale: string) {
  return page.evaluate(
    (lang) => new Intl.DisplayNames([lang], { type: "region" }).of("HK") ?? "",
    locale,
  );
}

/** Hong Kong's name in the HTML the server sent for `path` (no script run). */
async function servedName(page: Page, path: string) {
  const html = await (await page.request.get(path)).text();
  const match = /<option value="HK"[^>]*>([^<]+)<\/option>/.exec(html);
  expect(match, `${path} serves a Hong Kong choice`).not.toBeNull();
  return match![1]!;
}

for (const locale of LOCALES) {
  test(`the register page names the countries as the server does, in ${locale}, also when React draws it`, async ({
    browser,
  }) => {
    const { context, page } = await newCustomerSignedIn(browser, undefined, {
      viewport: { width: 1280, height: 900 },
    });
    const errors = collectErrors(page);
    await visit(page, `/dashboard?lang=${locale}`);
    // Signed out from a page React runs, the home page it lands on keeps React: the register page it
    // leads to is drawn in the browser from its loader's data, not served whole.
    await header(page).locator('form[action="/logout"] button').filter({ visible: true }).click();
    await expect(
      header(page).locator('a[href^="/login"]').filter({ visible: true }),
    ).not.toHaveCount(0);
    await page.locator('a[href="/register"]').filter({ visible: true }).first().click();
    await expect(page).toHaveURL(/\/register$/);
    const served = await servedName(page, "/register");
    expect(served).not.toBe(await browserName(page, locale));
    await expect.poll(() => hongKong(page, "country")).toBe(served);
    expect(errors).toEqual([]);
    await context.close();
  });

  test(`the billing card's countries hydrate without a mismatch, in ${locale}`, async ({
    browser,
  }) => {
    const { context, page } = await newCustomerSignedIn(browser);
    const errors = collectErrors(page);
    const path = `/dashboard?tab=account&lang=${locale}`;
    await page.goto(path);
    await waitForPage(page);
    await page.waitForLoadState("networkidle");
    const served = await servedName(page, path);
    expect(served).not.toBe(await browserName(page, locale));
    expect(await hongKong(page, "billingCountry")).toBe(served);
    expect(errors).toEqual([]);
    await context.close();
  });
}

test("the admin's shop country hydrates without a mismatch, in Arabic", async ({ browser }) => {
  const { context, page } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const errors = collectErrors(page);
  // An admin's ?lang= previews the page in that language; their saved language stays.
  const path = "/admin/settings?lang=ar";
  await page.goto(path);
  await waitForPage(page);
  await page.waitForLoadState("networkidle");
  const served = await servedName(page, path);
  expect(served).not.toBe(await browserName(page, "ar"));
  expect(await hongKong(page, "shopCountry")).toBe(served);
  expect(errors).toEqual([]);
  await context.close();
});
