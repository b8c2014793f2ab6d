import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  newCustomerSignedIn,
  signedIn,
  toast,
  visit,
  expect,
  test,
} from "./fixtures";

/** The admin adds coins on the customer's row of /admin/clients. */
async function addCoins(admin: Page, email: string, amount: string) {
  await visit(admin, `/admin/clients?q=${encodeURIComponent(email)}`);
  await admin.getByText("Add or remove coins").click();
  await admin.getByLabel("Amount (negative removes)").fill(amount);
  await admin.getByLabel("Reason").fill("Lifecycle test");
  await admin.getByRole("button", { name: "Save" }).click();
  await expect(admin.getByRole("status")).toHaveText("Coins updated successfully");
}

// The customer's automatic renewal switch (on for a new order, set on the services tab), and the
// lifecycle's preview an admin reads on /admin/settings before anything runs.
test("a customer turns automatic renewal off and on, and an admin sees the lifecycle's preview", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const buyer = await newCustomerSignedIn(browser, { name: "Nadia Lifecycle" });
  const { customer, page } = buyer;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await addCoins(admin.page, customer.email, "100");

  // The order form shows the switch, on by default.
  await visit(page, "/order?product=1");
  const autoRenew = page.getByRole("checkbox", { name: "Renew automatically from my coins" });
  await expect(autoRenew).toBeChecked();
  await page.getByLabel("Server name").fill("Nadia RP");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing/);

  await visit(admin.page, "/admin/orders?status=pending");
  await admin.page
    .getByRole("row", { name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.page.getByRole("status")).toContainText("approved");

  // The service runs with automatic renewal on, as ordered; the customer turns it off, then on.
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Automatic renewal from coins: on")).toBeVisible();
  await page.getByRole("button", { name: /^Turn off the automatic renewal of / }).click();
  await expect(toast(page, "Automatic renewal is off.")).toBeVisible();
  await expect(page.getByText("Automatic renewal from coins: off")).toBeVisible();
  await page.getByRole("button", { name: /^Turn on the automatic renewal of / }).click();
  await expect(toast(page, "Automatic renewal is on.")).toBeVisible();
  await expect(page.getByText("Automatic renewal from coins: on")).toBeVisible();

  // The admin moves its expiry five days back: past the two days' grace, the next run suspends it.
  await visit(admin.page, `/admin/services?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByRole("link", { name: /^Edit service #\d+$/ }).click();
  const edit = admin.page
    .locator("form")
    .filter({ has: admin.page.locator('input[value="edit"]') });
  const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  await edit.getByLabel("Expiry date").fill(fiveDaysAgo);
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByRole("status")).toHaveText("Service updated");

  // The settings page's lifecycle form: its switch, and the preview listing the service, linked to
  // its customer. Looking changes nothing.
  await visit(admin.page, "/admin/settings#lifecycle");
  const form = admin.page.getByRole("form", { name: "Service lifecycle" });
  await expect(form.getByRole("checkbox", { name: "Run the service lifecycle" })).toBeVisible();
  const preview = form.getByRole("region", { name: "Preview: what a run would do now" });
  await expect(preview).toBeVisible();
  const suspensions = preview.locator("div", {
    has: admin.page.getByRole("heading", { name: /Suspensions for expiry/ }),
  });
  const item = suspensions.getByRole("listitem").filter({ hasText: customer.email });
  await expect(item).toHaveCount(1);
  await expect(item.getByRole("link")).toHaveAttribute("href", /^\/admin\/clients\/[^/]+$/);
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Automatic renewal from coins: on")).toBeVisible();
  await expect(page.getByText("Suspended", { exact: true })).toHaveCount(0);

  await admin.context.close();
  await buyer.context.close();
});
