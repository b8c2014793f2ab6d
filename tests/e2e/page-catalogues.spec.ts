import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  login,
  registerCustomer,
  signedIn,
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
  const customer = await registerCustomer(page, { name: "Nadia Catalogue" });
  await login(page, customer.email, customer.password);
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
  await visit(page, "/dashboard?lang=en");
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
