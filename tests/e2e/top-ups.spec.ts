import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
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

  // The admin finds it first in the queue and approves it.
  await visit(admin.page, "/admin/top-ups?state=proof_sent");
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("Top-ups");
  const row = admin.page.getByRole("row", { name: new RegExp(reference) });
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
  await expect(admin.page.getByRole("row", { name: new RegExp(reference) })).toContainText(
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
