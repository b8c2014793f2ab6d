import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, registerCustomer, signedIn, visit } from "./fixtures";

const pages: [string, string][] = [
  ["/admin", "Dashboard"],
  ["/admin/clients", "Clients"],
  ["/admin/client-groups", "Client Groups"],
  ["/admin/users", "Clients"],
  ["/admin/orders", "Orders"],
  ["/admin/invoices", "Invoices"],
  ["/admin/quotes", "Quotes"],
  ["/admin/transactions", "Transactions"],
  ["/admin/gateways", "Payment Gateways"],
  ["/admin/products", "Products"],
  ["/admin/promotions", "Promotions"],
  ["/admin/services", "Services"],
  ["/admin/domains", "Domains"],
  ["/admin/domain-pricing", "Domain Pricing"],
  ["/admin/tickets", "Tickets"],
  ["/admin/knowledgebase", "Knowledgebase"],
  ["/admin/announcements", "Announcements"],
  ["/admin/downloads", "Downloads"],
  ["/admin/chat", "Live Chat"],
  ["/admin/affiliates", "Affiliates"],
  ["/admin/email-marketing", "Email Marketing"],
  ["/admin/reports", "Reports"],
  ["/admin/analytics", "Analytics"],
  ["/admin/utilities", "Utilities"],
  ["/admin/logs", "Logs"],
  ["/admin/security", "Security"],
  ["/admin/settings", "Settings"],
];

test("every admin route opens in the shell with its title", async ({ browser }) => {
  test.setTimeout(60_000);
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  for (const [path, title] of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText(title);
    await expect(page.getByRole("navigation", { name: "Admin Panel" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Site" })).toBeVisible();
  }
  await context.close();
});

test("the search box finds a client by email and an order by number", async ({ browser }) => {
  const guest = await browser.newContext();
  const customer = await registerCustomer(await guest.newPage(), { name: "Nadia Search" });
  await guest.close();
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin");
  await page.getByLabel("Search clients or order number").fill(customer.email);
  await page.getByLabel("Search clients or order number").press("Enter");
  await expect(page).toHaveURL(/\/admin\/clients\?q=/);
  await expect(page.getByText("Nadia Search")).toBeVisible();
  await context.close();
});

test("the admin menu is a drawer on a phone", async ({ browser }) => {
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.setViewportSize({ width: 375, height: 800 });
  await visit(page, "/admin/orders");
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    ),
  ).toBe(true);
  await page.getByRole("button", { name: "Open the admin menu" }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Tickets" }).click();
  await expect(page).toHaveURL(/\/admin\/tickets$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tickets");
  await context.close();
});
