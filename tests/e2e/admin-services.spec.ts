import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  registerOverHttp,
  signedIn,
  serverMoment,
  visit,
  expect,
  test,
} from "./fixtures";

// /admin/services: an annual service added by hand is priced as an order, the list is searched,
// filtered, sorted and paged from its address, and a service is edited.
test("an admin adds an annual service, finds it in the list and edits it", async ({ browser }) => {
  test.setTimeout(60_000);
  const guest = await browser.newContext();
  const customer = await registerOverHttp(guest, { name: "Walid Services" });
  await guest.close();
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin/services");

  // Add: €10.00 a month, annual: 12 × 10 less 15% = €102.00, running twelve calendar months.
  const add = page.locator("form").filter({ has: page.locator('input[value="add"]') });
  await add.getByLabel("User (email or id)").fill(customer.email);
  await add.getByLabel("Service name").fill("Walid's annual server");
  await add.getByLabel(/Price per month/).fill("10");
  await add.getByLabel("Billing cycle").selectOption("annual");
  const [added] = await Promise.all([
    page.waitForResponse(
      (response) =>
        response.request().method() === "POST" &&
        new URL(response.url()).pathname.startsWith("/admin/services"),
    ),
    add.getByRole("button", { name: "Add service" }).click(),
  ]);
  await expect(page.getByRole("status")).toHaveText("Service added successfully");

  // Search by the customer's email, through the filter bar: the address carries it.
  const filters = page.getByRole("search", { name: "Filter services" });
  await filters.getByLabel("Search").fill(customer.email);
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/q=/);
  const row = page.getByRole("row", { name: /Walid's annual server/ });
  await expect(row).toContainText("€102.00");
  await expect(row).toContainText("annual");
  // The same day next year (UTC), or the last day of February when today is the 29th: today as the
  // server saw it when it added the service.
  const today = serverMoment(added);
  const year = today.getUTCFullYear() + 1;
  const month = today.getUTCMonth();
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const expiry = new Date(Date.UTC(year, month, Math.min(today.getUTCDate(), lastDay)))
    .toISOString()
    .slice(0, 10);

  // A filter it does not match, then sorting by a column header and paging past the end.
  await filters.getByLabel("Expiring").selectOption("7");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/within=7/);
  await expect(page.getByText("No service matches these filters.")).toBeVisible();
  await visit(page, `/admin/services?q=${encodeURIComponent(customer.email)}&within=30`);
  await expect(page.getByText("No service matches these filters.")).toBeVisible();
  await visit(page, `/admin/services?q=${encodeURIComponent(customer.email)}`);
  await page.getByRole("link", { name: "Expires" }).click();
  await expect(page).toHaveURL(/sort=expires/);
  await expect(page.getByRole("columnheader", { name: "Expires" })).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  await expect(page.getByRole("row", { name: /Walid's annual server/ })).toBeVisible();
  await visit(page, `/admin/services?q=${encodeURIComponent(customer.email)}&page=2`);
  await expect(page.getByText("No service matches these filters.")).toBeVisible();
  await expect(page.getByRole("link", { name: /Previous/ })).toBeVisible();

  // Edit: the form shows what is stored; a negative price is refused with its reason, then a save.
  await visit(page, `/admin/services?q=${encodeURIComponent(customer.email)}`);
  await page.getByRole("link", { name: /^Edit service #\d+$/ }).click();
  await expect(page).toHaveURL(/edit=\d+/);
  const edit = page.locator("form").filter({ has: page.locator('input[value="edit"]') });
  await expect(edit.getByLabel("Price per billing cycle (€)")).toHaveValue("102.00");
  await expect(edit.getByLabel("Expiry date")).toHaveValue(expiry);
  await edit.getByLabel("Price per billing cycle (€)").fill("-1");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByText("The price cannot be negative")).toBeVisible();
  await expect(edit.getByLabel("Price per billing cycle (€)")).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await edit.getByLabel("Price per billing cycle (€)").fill("99,95");
  await edit.getByLabel("Expiry date").fill("2030-06-30");
  await edit.getByLabel("Admin note (optional)").fill("Paid by bank transfer");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByRole("status")).toHaveText("Service updated");
  const edited = page.getByRole("row", { name: /Walid's annual server/ });
  await expect(edited).toContainText("€99.95");
  await expect(edited).toContainText("Paid by bank transfer");
  await expect(edited).toContainText("30 Jun 2030");
  await context.close();
});
