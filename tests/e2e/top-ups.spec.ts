import type { Browser } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  PAYMENTS_BASE_URL,
  newCustomerSignedIn,
  signedIn,
  visit,
  expect,
  test,
  noHorizontalScroll,
} from "./fixtures";
import { openInwiMoney, sayPaid } from "./top-up-steps";

// Top-up requests (docs/payments.md): a customer asks for coins with a dirham wallet, pays outside the
// site with the reference, says so, and an admin approves it from /admin/top-ups.

// On the server of their own where payment methods are switched on (PAYMENTS_BASE_URL): the other
// servers keep none open, so their coin dialog says how to buy coins off-site.
test.use({ baseURL: PAYMENTS_BASE_URL });

test("a customer requests 10 coins, pays in dirhams, and the admin's approval credits them", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await openInwiMoney(admin.page);

  const buyer = await newCustomerSignedIn(browser, { name: "Samira Topup" });
  const page = buyer.page;

  // "Add coins" in the billing tab leads to the page.
  await visit(page, "/dashboard?tab=billing");
  await page.getByRole("link", { name: "Add coins" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/top-up$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add coins");
  await page.getByRole("button", { name: "20", exact: true }).click();
  await expect(page.getByLabel("Or type a whole number of coins")).toHaveValue("20");
  await page.getByRole("button", { name: "10", exact: true }).click();
  await page.getByRole("radio", { name: /Inwi Money/ }).check();
  await expect(page.locator("[data-quote]")).toHaveText("You send MAD 110.00");
  await page.getByRole("button", { name: "Request the top-up" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Top-up requested: send the amount with the reference below.",
  );
  const reference = (await page.locator("[data-reference]").textContent())!.trim();
  expect(reference).toMatch(/^TU-[2-9A-HJKMNP-Z]{5}$/);
  await expect(page.locator("[data-total]")).toHaveText("MAD 110.00");
  await expect(page.getByText("Send to 0700 000 000 (Hostfront SARL)")).toBeVisible();
  await expect(page.getByText("Waiting for payment")).toBeVisible();
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await noHorizontalScroll(page)).toBe(true);

  await sayPaid(page);

  // The admin finds it first in the queue and approves it: its row begins with its reference (another
  // request's row may name it, "Same file as …", when a test sent the same image).
  await visit(admin.page, "/admin/top-ups?state=proof_sent");
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("Top-ups");
  const row = admin.page.getByRole("row", { name: new RegExp(`^${reference}`) });
  await expect(row).toContainText("MAD 110.00");
  await expect(row).toContainText("Paid from 0611 222 333");
  await expect(row).toContainText("Samira Topup");
  // On a phone the queue is cards and nothing scrolls sideways.
  await admin.page.setViewportSize({ width: 360, height: 800 });
  expect(await noHorizontalScroll(admin.page)).toBe(true);
  await admin.page.setViewportSize({ width: 1280, height: 800 });
  await row.getByRole("button", { name: `Approve ${reference}` }).click();
  await expect(admin.page.getByRole("status")).toHaveText(
    `Top-up ${reference} approved: coins credited.`,
  );
  await visit(admin.page, "/admin/top-ups?state=approved");
  await expect(admin.page.getByRole("row", { name: new RegExp(`^${reference}`) })).toContainText(
    "Approved",
  );

  // The customer's balance has the 10 coins, and the request is listed as approved.
  await page.setViewportSize({ width: 1280, height: 800 });
  await visit(page, "/dashboard/top-up");
  await expect(page.getByRole("button", { name: /^Coin balance: 10\.00 coins/ })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(reference) })).toContainText("Approved");
  await admin.context.close();
  await buyer.context.close();
});

/** Inwi Money opened by the admin, and a new customer signed in on a 390 px touch phone. */
async function phoneCustomerWithInwiOpen(browser: Browser, name: string) {
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await openInwiMoney(admin.page);
  await admin.context.close();
  return newCustomerSignedIn(
    browser,
    { name },
    { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  );
}

test("on a phone, a customer short of coins on the order form taps Add coins and finds the top-up form filled in", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const buyer = await phoneCustomerWithInwiOpen(browser, "Karim Short");
  const page = buyer.page;
  // SA-MP Premium, 4.50 a month, against a new account's 0 coins.
  await visit(page, "/order?lang=en");
  const plan = page.locator('select[name="productId"]');
  const premium = await plan.locator("option", { hasText: /^SAMP Premium/ }).getAttribute("value");
  // In Arabic the box reads right to left, with its button in words, inside the screen.
  await visit(page, "/order?lang=ar");
  await plan.selectOption(premium!);
  const shortfall = page.getByTestId("order-shortfall");
  await expect(shortfall.getByRole("link", { name: "إضافة كوينز" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  expect(await noHorizontalScroll(page)).toBe(true);

  await visit(page, "/order?lang=en");
  await plan.selectOption(premium!);
  await expect(shortfall).toContainText("this order needs 4.50 coins more");
  // A button that says what it does, not the balance chip whose words only a screen reader heard.
  const addCoins = shortfall.getByRole("link", { name: "Add coins" });
  await expect(addCoins).toBeVisible();
  await addCoins.tap();

  // Straight to the form, no detour through the coins page: 4.50 missing is 5 whole coins.
  await expect(page).toHaveURL(/\/dashboard\/top-up\?coins=4\.50$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add coins");
  await expect(page.getByLabel("Or type a whole number of coins")).toHaveValue("5");
  await expect(page.getByTestId("top-up-prefilled")).toBeVisible();
  await expect(page.locator("[data-quote]")).toBeVisible();
  expect(await noHorizontalScroll(page)).toBe(true);
  await buyer.context.close();
});

test("on a phone, “I have paid” ends on the thanks, in view and focused, with the form folded away", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const buyer = await phoneCustomerWithInwiOpen(browser, "Nadia Phone");
  const page = buyer.page;
  await visit(page, "/dashboard/top-up");
  await page.getByRole("button", { name: "10", exact: true }).tap();
  await page.getByRole("radio", { name: /Inwi Money/ }).check();
  await page.getByRole("button", { name: "Request the top-up" }).tap();
  const result = page.getByRole("main").getByRole("status");
  await expect(result).toHaveText("Top-up requested: send the amount with the reference below.");
  await expect(result).toBeInViewport();

  await sayPaid(page);
  // The thanks is on the screen and the screen reader's focus is on it, not on the emptied form below.
  await expect(result).toBeInViewport();
  await expect(result).toBeFocused();
  // The form is folded: what was sent is said, and the form opens again to correct it.
  await expect(page.getByText("Paid, being checked")).toBeVisible();
  await expect(page.getByLabel("Proof of payment")).toBeHidden();
  const reopen = page.getByText("Change what you sent or add a file", { exact: true });
  await expect(reopen).toBeVisible();
  await reopen.tap();
  await expect(page.getByLabel("Phone number or account that paid")).toHaveValue("0611 222 333");
  await expect(page.getByLabel("Proof of payment")).toBeVisible();
  await buyer.context.close();
});
