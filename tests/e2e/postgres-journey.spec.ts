import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  POSTGRES_BASE_URL,
  expect,
  login,
  registerCustomer,
  signInOverHttp,
  test,
  toast,
  visit,
} from "./fixtures";
import { openInwiMoney, sayPaid } from "./top-up-steps";

// A larger host runs on PostgreSQL (ADR 2): the production build on a throwaway cluster
// (postgres-server.ts), through the money path a customer takes, every step through the pages. The
// same steps on SQLite are top-ups.spec.ts, money-path.spec.ts and renewal-and-bidi.spec.ts.
test.use({ baseURL: POSTGRES_BASE_URL });

/** The header's coin balance, in cents. */
async function balance(page: Page) {
  const text = (await page.getByRole("button", { name: /coins/ }).first().textContent()) ?? "";
  const coins = /([\d,]+\.\d{2})/.exec(text)?.[1];
  if (!coins) throw new Error(`no balance in "${text}"`);
  return Math.round(Number(coins.replace(/,/g, "")) * 100);
}

test("on PostgreSQL: register, top up and be approved, order, be approved, renew", async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const admin = await browser.newContext();
  await signInOverHttp(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
  const desk = await admin.newPage();

  // The admin opens a way to pay: Inwi Money at 11.00 MAD a coin.
  await openInwiMoney(desk);

  // A visitor registers and signs in through the forms.
  const customer = await registerCustomer(page, { name: "Yassine Postgres" });
  await login(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // 30 coins, paid in dirhams with a screenshot, approved by the admin.
  await visit(page, "/dashboard/top-up");
  await page.getByLabel("Or type a whole number of coins").fill("30");
  await page.getByRole("radio", { name: /Inwi Money/ }).check();
  await expect(page.locator("[data-quote]")).toHaveText("You send MAD 330.00");
  await page.getByRole("button", { name: "Request the top-up" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Top-up requested: send the amount with the reference below.",
  );
  const reference = (await page.locator("[data-reference]").textContent())!.trim();
  await sayPaid(page);

  await visit(desk, "/admin/top-ups?state=proof_sent");
  await desk
    .getByRole("row", { name: new RegExp(`^${reference}`) })
    .getByRole("button", { name: `Approve ${reference}` })
    .click();
  await expect(desk.getByRole("status")).toHaveText(
    `Top-up ${reference} approved: coins credited.`,
  );
  await visit(page, "/dashboard/top-up");
  expect(await balance(page)).toBe(30_00);

  // An order for a €12.00 monthly VPS, paid from the coins, approved by the admin.
  await visit(page, "/order");
  await page.getByLabel("Service").selectOption({ label: "VPS Business — €12.00/month" });
  await expect(page.getByTestId("order-total")).toHaveText("€12.00");
  await page.getByLabel("Server name").fill("Yassine's VPS");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  await expect(
    toast(page, "Order submitted successfully! It's now pending admin approval."),
  ).toBeVisible();
  expect(await balance(page)).toBe(18_00);

  await visit(desk, "/admin/orders?status=pending");
  await desk
    .getByRole("row", { name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(desk.getByRole("status")).toContainText("approved");

  // The service is active; a renewal adds a month for the same €12.00.
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: /^Renew for / }).click();
  const confirmation = page.getByRole("region", { name: /Renew this service\?/ });
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toContainText("€12.00");
  await page.getByRole("button", { name: "Confirm renewal" }).click();
  await expect(toast(page, "Your service has been renewed.")).toBeVisible();
  await expect.poll(() => balance(page)).toBe(6_00);

  // The order and the renewal each have their paid invoice, numbered in one series.
  await visit(page, "/dashboard?tab=billing");
  const invoices = page.getByRole("table", { name: "Invoices and receipts" });
  await expect(invoices.getByRole("link", { name: /^HF-\d{4}-\d{6}$/ })).toHaveCount(2);
  await admin.close();
});
