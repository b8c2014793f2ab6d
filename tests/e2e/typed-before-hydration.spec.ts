import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  holdScripts,
  signInOverHttp,
  test,
  waitForHydration,
} from "./fixtures";

// A page works from its first paint (ADR 13): on a slow phone a person types while its script is still
// on the way. Hydrating then must not take back what was typed: React 19 keeps an <input>'s text but
// writes a <textarea>'s and a <select>'s server value over them (entry.client hands them back).

async function openWithoutScripts(page: Page, path: string) {
  const scripts = await holdScripts(page);
  // Neither "load" nor DOMContentLoaded comes while module scripts wait: the HTML's arrival is enough.
  await page.goto(path, { waitUntil: "commit" });
  await page.locator("main form").first().waitFor();
  expect(await page.evaluate(() => document.documentElement.hasAttribute("data-hydrated"))).toBe(
    false,
  );
  return scripts;
}

test("a customer's ticket typed before the page hydrated is still there after", async ({
  page,
  customer,
}) => {
  await signInOverHttp(page, customer.email, customer.password);
  const scripts = await openWithoutScripts(page, "/support/new?topic=coins");
  await page.getByLabel("Department").selectOption("technical");
  await page.getByLabel("Subject").fill("My server does not start");
  await page.getByLabel("Priority").selectOption("high");
  await page.getByLabel("Message").fill("It stops at once, with port 7777 in use.");
  expect(scripts.count()).toBeGreaterThan(0);
  await scripts.release();
  await waitForHydration(page);

  await expect(page.getByLabel("Department")).toHaveValue("technical");
  await expect(page.getByLabel("Subject")).toHaveValue("My server does not start");
  await expect(page.getByLabel("Priority")).toHaveValue("high");
  await expect(page.getByLabel("Message")).toHaveValue("It stops at once, with port 7777 in use.");
  // React knows the values too: what it sends is what the form shows.
  await page.getByRole("button", { name: "Open ticket" }).click();
  await expect(page).toHaveURL(/\/support\/\d+\?opened=1/);
  await expect(page.getByRole("heading", { name: /My server does not start/ })).toBeVisible();
  await expect(page.getByText("It stops at once, with port 7777 in use.")).toBeVisible();
});

test("an admin's locations typed into their list before the page hydrated are kept", async ({
  page,
}) => {
  await signInOverHttp(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  const scripts = await openWithoutScripts(page, "/admin/settings#locations");
  const locations = page
    .getByRole("form", { name: "Server locations" })
    .getByLabel("Locations, one per line");
  await expect(locations).toHaveValue(/\S/);
  // As a person adds a line: the caret to the end, then the keys.
  await locations.focus();
  await locations.evaluate((area: HTMLTextAreaElement) =>
    area.setSelectionRange(area.value.length, area.value.length),
  );
  await locations.pressSequentially("\nCasablanca");
  const typed = await locations.inputValue();
  expect(typed).toMatch(/\nCasablanca$/);
  await scripts.release();
  await waitForHydration(page);
  await expect(locations).toHaveValue(typed);
});
