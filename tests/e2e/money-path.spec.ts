import {
  ADMIN_EMAIL,
  signedIn,
  ADMIN_PASSWORD,
  newCustomerSignedIn,
  registerOverHttp,
  signInOverHttp,
  submitLogin,
  toast,
  visit,
  expect,
  test,
  expectAccessible,
} from "./fixtures";

test("admin adds coins, customer orders with a voucher, admin approves, customer sees the service", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const buyer = await newCustomerSignedIn(browser, { name: "Rachid Path" });
  const { customer } = buyer;

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("100");
  await expect(admin.page.getByTestId("new-total")).toHaveText("New total: 100.00");
  await admin.page.getByLabel("Reason").fill("Paid by Orange Money, ticket 12");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");

  // The browser knows every route from the manifest file (ADR 16): it never asks the server about links.
  const discoveryRequests: string[] = [];
  buyer.page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/__manifest"))
      discoveryRequests.push(request.url());
  });
  await visit(buyer.page, "/order");
  await buyer.page.getByLabel("Service").selectOption({ label: "VPS Business — €12.00/month" });
  await expect(buyer.page.getByTestId("order-total")).toHaveText("€12.00");
  await buyer.page.getByLabel("Billing cycle").selectOption("quarterly");
  await expect(buyer.page.getByTestId("order-total")).toHaveText("€34.20");
  await buyer.page.getByLabel("Billing cycle").selectOption("monthly");
  await buyer.page.getByLabel("Server name").fill("Rachid's VPS");
  await buyer.page.getByLabel("Voucher code (optional)").fill("welcome10");
  await buyer.page.getByRole("button", { name: "Place order" }).click();
  await expect(buyer.page).toHaveURL(/\/dashboard\/billing$/);
  await expect(
    toast(buyer.page, "Order submitted successfully! It's now pending admin approval."),
  ).toBeVisible();
  await expect(buyer.page.getByText("Pending", { exact: true })).toBeVisible();
  // 100.00 − (12.00 − 10%) = 89.20
  await expect(buyer.page.getByRole("button", { name: /89\.20 coins/ }).first()).toBeVisible();

  await visit(admin.page, "/admin/orders?status=pending");
  const row = admin.page.getByRole("row", {
    name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")),
  });
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(admin.page.getByRole("status")).toContainText("approved");

  await visit(buyer.page, "/dashboard?tab=services");
  await expect(buyer.page.getByText("Active", { exact: true })).toBeVisible();
  await expect(buyer.page.getByText(/Expires /)).toBeVisible();
  await visit(buyer.page, "/dashboard?tab=billing");
  await expect(buyer.page.getByText("Approved", { exact: true })).toBeVisible();
  expect(discoveryRequests).toEqual([]);

  await admin.context.close();
  await buyer.context.close();
});

test("the order form asks a visitor to log in and brings them back", async ({ page }) => {
  await visit(page, "/order?product=1");
  await page.getByLabel("Server name").fill("Guest server");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByText("Please login to continue")).toBeVisible();
  await page.getByRole("alert").getByRole("link", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Forder%3Fproduct%3D1/);
  await submitLogin(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  // Back on the form with what was chosen: the plan and the options are in its URL.
  await expect(page).toHaveURL(/\/order\?product=1&.*serverName=Guest\+server$/);
  await expect(page.getByLabel("Server name")).toHaveValue("Guest server");
});

test("the order form refuses a blank server name and an order it cannot pay", async ({ page }) => {
  const customer = await registerOverHttp(page);
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  await visit(page, "/order");
  await expect(page.getByRole("button", { name: "Place order" })).toBeDisabled();
  await page.getByLabel("Service").selectOption({ index: 1 });
  await page.getByLabel("Server name").fill("   ");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByRole("alert").first()).toContainText("Please fill in all required fields");
  await page.getByLabel("Server name").fill("Broke server");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByRole("alert").first()).toContainText("Not enough coins");
  // No payment method is open on this server: Add coins leads to the team's way, off-site.
  await page.getByRole("alert").first().getByRole("link", { name: "Add coins" }).click();
  await expect(page).toHaveURL(/\/coins$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Buy coins");
  await expectAccessible(page);
});
