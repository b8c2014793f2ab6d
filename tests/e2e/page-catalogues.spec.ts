import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  registerOverHttp,
  signedIn,
  signInOverHttp,
  test,
  visit,
} from "./fixtures";

/** The catalogues written into the page (ADR 29): namespace -> texts. */
async function pageCatalogues(page: Page) {
  const json = await page.locator("script#catalogues").textContent();
  return JSON.parse(json ?? "null") as Record<string, Record<string, unknown>>;
}

test("a signed-in page carries its own language's catalogues, only the namespaces it shows", async ({
  page,
}) => {
  const customer = await registerOverHttp(page, { name: "Nadia Catalogue" });
  await signInOverHttp(page, customer.email, customer.password);
  const scripts: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(response.text());
  });
  await visit(page, "/dashboard?lang=fr");
  const catalogues = await pageCatalogues(page);
  expect(Object.keys(catalogues)).toContain("common");
  expect(Object.keys(catalogues)).toContain("dashboard");
  // No admin texts on a customer's page, and no other language: the French text, not the English one.
  expect(Object.keys(catalogues).filter((ns) => ns.startsWith("admin"))).toEqual([]);
  expect(JSON.stringify(catalogues)).not.toContain('"Dashboard"');
  const heading = (await page.getByRole("heading", { level: 1 }).first().textContent())!.trim();
  expect(heading).not.toMatch(/Dashboard/);
  // Hydrated with those: no script the page loaded holds a catalogue (its title is in none).
  expect(scripts.length).toBeGreaterThan(0);
  for (const body of await Promise.all(scripts)) expect(body).not.toContain(heading);
  // The order form (in English again) carries its own texts and the shell's, not the public pages'
  // (the footer's newsletter box has its texts in common) nor their announcements, which it does not show.
  await visit(page, "/order?lang=en");
  const order = Object.keys(await pageCatalogues(page));
  expect(order).toEqual(expect.arrayContaining(["common", "orders", "notifications"]));
  // The bell's texts are their own namespace: the tickets' catalogue stays with the pages that show one.
  expect(order).not.toContain("tickets");
  expect(order).not.toContain("site");
  expect(order).not.toContain("announcements");
  expect(order.filter((ns) => ns.startsWith("admin"))).toEqual([]);
});

test("a page reached by a link loads the texts it needs before it shows", async ({ browser }) => {
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, "/admin/clients");
  expect(Object.keys(await pageCatalogues(admin.page))).not.toContain("admin-settings");
  // Client-side navigation to a page with a namespace the first one did not carry.
  await admin.page.getByRole("link", { name: "Settings", exact: true }).first().click();
  await expect(admin.page).toHaveURL(/\/admin\/settings$/);
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  // No key shown in place of a text anywhere on the page.
  await expect(admin.page.locator("main")).not.toContainText(/\b[a-z]+(\.[a-zA-Z]+){2,}\b/);
  await admin.context.close();
});

// The server writes a page's texts with our translator and the browser hydrates with the same one
// (app/i18n/translator.ts, ADR 29): a text that came out differently (a plural form, an isolate around an
// Arabic value) would be a hydration mismatch, which React reports as an error and repairs by rendering
// the page again in the browser.
test("a signed-in page hydrates in each language with the texts the server wrote", async ({
  page,
  browser,
}) => {
  const problems: string[] = [];
  const watch = (target: Page) => {
    target.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    target.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  };
  watch(page);
  const customer = await registerOverHttp(page, { name: "Nadia Hydrate" });
  await signInOverHttp(page, customer.email, customer.password);
  for (const lang of ["ar", "fr", "en"])
    for (const path of ["/dashboard", "/dashboard?tab=billing", "/order", "/support/new"]) {
      await visit(page, `${path}${path.includes("?") ? "&" : "?"}lang=${lang}`);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
    }
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  watch(admin.page);
  for (const lang of ["ar", "fr", "en"]) {
    await visit(admin.page, `/admin/clients?lang=${lang}`);
    await expect(admin.page.locator("html")).toHaveAttribute("lang", lang);
  }
  await admin.context.close();
  expect(problems).toEqual([]);
});
