import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  newCustomerSignedIn,
  signedIn,
  signInOverHttp,
  toast,
  visit,
  expect,
  test,
  noHorizontalScroll,
} from "./fixtures";

function tag() {
  return randomBytes(3).toString("hex").toUpperCase();
}

/** The plan card of this name on a storefront page. */
function plan(page: Page, name: string) {
  return page.locator("article").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

test("the admin creates a product, the storefront shows it, edits follow at once, and hidden it is gone", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const name = `Arena ${tag()}`;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const visitor = await (await browser.newContext()).newPage();

  await visit(admin.page, "/admin/products");
  await admin.page.getByRole("link", { name: "New product" }).click();
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("New product");
  const form = admin.page.getByRole("main");
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Type", { exact: true }).selectOption("game");
  await form.getByLabel("Description", { exact: true }).fill("Made by the browser test");
  await form.getByLabel("Features, one per line").fill("Modpacks\nDaily backups");
  await form.getByLabel("RAM (GB)").fill("6");
  await form.getByLabel("Player slots").fill("64");
  // A price with three decimals is refused, with what was typed kept.
  await form.getByLabel("Price per month (€)").fill("6.499");
  await form.getByRole("button", { name: "Create product" }).click();
  await expect(form.getByRole("status")).toContainText("The product was not saved");
  await expect(form.getByText("Use at most 2 decimals (whole cents)")).toBeVisible();
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue(name);
  await form.getByLabel("Price per month (€)").fill("6,5");
  await form.getByRole("button", { name: "Create product" }).click();
  await expect(admin.page).toHaveURL(/\/admin\/products\?notice=created#product-\d+$/);
  await expect(admin.page.getByRole("status")).toHaveText("Product created");
  const row = admin.page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("€6.50");
  await expect(row).toContainText("Active");

  await visit(visitor, "/game-hosting");
  await expect(plan(visitor, name)).toContainText("€6.50");
  await expect(plan(visitor, name)).toContainText("64 player slots");
  await expect(plan(visitor, name)).toContainText("Modpacks");

  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText(`Edit ${name}`);
  await expect(form.getByLabel("Price per month (€)")).toHaveValue("6.50");
  await form.getByLabel("Price per month (€)").fill("7.25");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Product saved");
  await expect(row).toContainText("€7.25");
  await visit(visitor, "/game-hosting");
  await expect(plan(visitor, name)).toContainText("€7.25");
  await expect(plan(visitor, name)).not.toContainText("€6.50");

  await row.getByRole("button", { name: `Hide ${name}` }).click();
  await expect(admin.page.getByRole("status")).toHaveText(
    "Product hidden: it is no longer listed or orderable",
  );
  await expect(row).toContainText("Hidden");
  await visit(visitor, "/game-hosting");
  await expect(visitor.getByRole("heading", { name: "Game Basic" })).toBeVisible();
  await expect(plan(visitor, name)).toHaveCount(0);
  await visit(visitor, "/order");
  await expect(visitor.getByLabel("Service").locator("option", { hasText: name })).toHaveCount(0);

  // The audit log has every step.
  await visit(admin.page, "/admin/logs?targetType=product");
  for (const action of ["Product created", "Product edited", "Product hidden"])
    await expect(admin.page.getByRole("table").getByText(action).first()).toBeVisible();
  await admin.context.close();
  await visitor.context().close();
});

test("products move up and down without JavaScript", async ({ browser }) => {
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  await signInOverHttp(noScript, ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = await noScript.newPage();
  await page.goto("/admin/products?type=vps");
  const names = () =>
    page
      .getByRole("row")
      .locator("td p.font-semibold")
      .allInnerTexts()
      .then((list) => list.map((text) => text.trim()));
  const before = await names();
  expect(before.length).toBeGreaterThanOrEqual(3);
  const [first, second] = before;
  await page.getByRole("button", { name: `Move ${second} up` }).click();
  await expect(page.getByRole("status")).toHaveText("Product moved");
  expect((await names()).slice(0, 2)).toEqual([second, first]);
  await page.getByRole("button", { name: `Move ${second} down` }).click();
  await expect(page.getByRole("status")).toHaveText("Product moved");
  expect(await names()).toEqual(before);
  // The first cannot go further up.
  await expect(page.getByRole("button", { name: `Move ${first} up` })).toBeDisabled();
  await noScript.close();
});

test("the admin creates a voucher and a customer pays the discounted price with it", async ({
  browser,
}) => {
  // Two people, a registration, coins, a voucher and two orders: more than one page's work.
  test.setTimeout(90_000);
  const code = `E2E-${tag()}`;
  // Registered and signed in over HTTP now; the buyer's pages come once the voucher exists.
  const buyer = await newCustomerSignedIn(browser, { name: "Voucher Buyer" });
  const customer = buyer.customer;

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("100");
  await admin.page.getByLabel("Reason").fill("Voucher test credit");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");

  await visit(admin.page, "/admin/promotions");
  await admin.page.getByRole("link", { name: "New voucher" }).click();
  // The list has a "Code" search field too: wait for the form before typing.
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("New voucher");
  const form = admin.page.getByRole("main");
  await form.getByLabel("Code").fill(code.toLowerCase());
  await form.getByLabel("Description", { exact: true }).fill("Browser test");
  await form.getByLabel("Discount", { exact: true }).fill("25");
  await form.getByLabel("Maximum uses").fill("3");
  await form.getByLabel("Valid until").fill("2099-12-31");
  await form.getByRole("button", { name: "Create voucher" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Voucher created");
  const row = admin.page.getByRole("row", { name: new RegExp(code) });
  await expect(row).toContainText("25%");
  await expect(row).toContainText("0 / 3");
  await expect(row).toContainText("Active");

  // The same code in another case is refused.
  await admin.page.getByRole("link", { name: "New voucher" }).click();
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("New voucher");
  await form.getByLabel("Code").fill(code);
  await form.getByLabel("Discount", { exact: true }).fill("5");
  await form.getByLabel("Valid until").fill("2099-12-31");
  await form.getByRole("button", { name: "Create voucher" }).click();
  await expect(
    form
      .getByText("Another voucher already has this code (codes are the same in any case)")
      .first(),
  ).toBeVisible();

  await visit(buyer.page, "/order");
  await buyer.page.getByLabel("Service").selectOption({ label: "VPS Entry — €7.00/month" });
  await buyer.page.getByLabel("Server name").fill("Discounted VPS");
  await buyer.page.getByLabel("Voucher code (optional)").fill(code.toLowerCase());
  await buyer.page.getByRole("button", { name: "Place order" }).click();
  await expect(buyer.page).toHaveURL(/\/dashboard\/billing$/);
  await expect(
    toast(buyer.page, "Order submitted successfully! It's now pending admin approval."),
  ).toBeVisible();
  // 100.00 − (7.00 − 25%) = 94.75
  await expect(buyer.page.getByRole("button", { name: /94\.75 coins/ }).first()).toBeVisible();

  await visit(admin.page, `/admin/promotions?q=${code}`);
  await expect(row).toContainText("1 / 3");
  await expect(row).toContainText("1 order");
  await row.getByRole("link", { name: /^Order #\d+$/ }).click();
  await expect(admin.page).toHaveURL(/\/admin\/orders\?id=\d+$/);
  await expect(admin.page.getByRole("main")).toContainText(customer.email);

  // Deactivated, the order form refuses it.
  await visit(admin.page, `/admin/promotions?q=${code}`);
  await row.getByRole("button", { name: `Deactivate ${code}` }).click();
  await expect(admin.page.getByRole("status")).toHaveText(
    "Voucher deactivated: orders refuse it now",
  );
  await visit(buyer.page, "/order");
  await buyer.page.getByLabel("Service").selectOption({ label: "VPS Entry — €7.00/month" });
  await buyer.page.getByLabel("Server name").fill("Second VPS");
  await buyer.page.getByLabel("Voucher code (optional)").fill(code);
  await buyer.page.getByRole("button", { name: "Place order" }).click();
  await expect(buyer.page.getByRole("alert").first()).toContainText(
    "This voucher is no longer active",
  );
  await admin.context.close();
  await buyer.context.close();
});

test("the products and promotions pages fit a 375 px phone", async ({ browser }) => {
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of [
    "/admin/products",
    "/admin/products?edit=new",
    "/admin/promotions",
    "/admin/promotions?edit=new",
    "/admin/products?lang=ar",
  ]) {
    await visit(page, path);
    expect(await noHorizontalScroll(page), path).toBe(true);
  }
  await context.close();
});

test("on a phone, the product editor's refusal is brought into view and focused", async ({
  browser,
}) => {
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await visit(page, "/admin/products?edit=new");
  const form = page.getByRole("main");
  await form.getByLabel("Name", { exact: true }).fill(`Refused ${tag()}`);
  await form.getByLabel("Price per month (€)").fill("6.499");
  // The button is at the foot of a long form: the refusal above it was off the screen.
  await form.getByRole("button", { name: "Create product" }).tap();
  const refusal = form.getByRole("status");
  await expect(refusal).toContainText("The product was not saved");
  await expect(refusal).toBeInViewport();
  await expect(refusal).toBeFocused();
  await context.close();
});
