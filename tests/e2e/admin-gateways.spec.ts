import { randomBytes } from "node:crypto";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  PAYMENTS_BASE_URL,
  signedIn,
  visit,
  expect,
  test,
  noHorizontalScroll,
} from "./fixtures";

// /admin/gateways (docs/payments.md): the payment methods customers buy coins with.

// On the server of their own where payment methods are switched on (PAYMENTS_BASE_URL): the other
// servers keep none open, so their coin dialog says how to buy coins off-site.
test.use({ baseURL: PAYMENTS_BASE_URL });

test("the admin sets up Orange Money, enables it, and adds and deletes a method of their own", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = admin.page;
  await visit(page, "/admin/gateways");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment Gateways");
  const orange = page.getByRole("row", { name: /Orange Money/ });
  await expect(orange).toContainText("Disabled");
  await expect(orange).toContainText("Built-in");

  // Nobody can be told where to pay before the instructions are written.
  await orange.getByRole("button", { name: "Enable Orange Money" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Write the instructions in English, the site's default language, before enabling the method.",
  );
  await expect(orange).toContainText("Disabled");

  await orange.getByRole("link", { name: "Edit Orange Money" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit Orange Money");
  const form = page.getByRole("main");
  const english = form.getByRole("group", { name: "English" });
  await english
    .getByLabel("Instructions")
    .fill("Send to 0600 000 000 (Hostfront SARL).\nReference: your top-up code.");
  await form.getByLabel("Dirhams per coin (MAD)").fill("10,9x");
  await form.getByLabel("Percentage fee (%)").fill("2.5");
  await form.getByLabel("Enabled", { exact: true }).check();
  // A rate that is no number is refused, with what was typed kept.
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("status")).toHaveText("The payment method was not saved");
  await expect(
    form.getByText("Type a number, such as 11.50 (a dot or a comma before the decimals)."),
  ).toBeVisible();
  await expect(english.getByLabel("Instructions")).toHaveValue(
    "Send to 0600 000 000 (Hostfront SARL).\nReference: your top-up code.",
  );
  await form.getByLabel("Dirhams per coin (MAD)").fill("10,90");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(/\/admin\/gateways\?notice=updated#method-\d+$/);
  await expect(page.getByRole("status")).toHaveText("Payment method saved");
  await expect(orange).toContainText("Enabled");
  await expect(orange).toContainText("MAD 10.90");
  await expect(orange).toContainText("2.5%");

  // The editor shows what a sample top-up costs with the saved terms: 2.5% of MAD 109.00 is 2.725,
  // rounded half up to 2.73.
  await orange.getByRole("link", { name: "Edit Orange Money" }).click();
  await expect(form.getByLabel("Dirhams per coin (MAD)")).toHaveValue("10.90");
  await expect(form.getByLabel("Enabled", { exact: true })).toBeChecked();
  await expect(form).toContainText(
    "With the saved terms, 10 coins cost MAD 109.00; with the fee, the customer sends MAD 111.73.",
  );
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await noHorizontalScroll(page)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  await form.getByRole("link", { name: "Cancel" }).click();

  // A method of the admin's own: added, listed, then deleted.
  const name = `Wise ${randomBytes(3).toString("hex")}`;
  await page.getByRole("link", { name: "Add a method" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New payment method");
  await english.getByLabel("Name").fill(name);
  await english.getByLabel("Instructions").fill("Send euros to payments@hostfront.example");
  await form.getByLabel("Currency").selectOption("EUR");
  await form.getByRole("button", { name: "Add method" }).click();
  await expect(page.getByRole("status")).toHaveText("Payment method added");
  const custom = page.getByRole("row", { name: new RegExp(name) });
  await expect(custom).toContainText("€1.00");
  await expect(custom).toContainText("Disabled");
  await expect(custom).not.toContainText("Built-in");
  // A built-in method has no delete button; the admin's own has.
  await expect(orange.getByRole("button", { name: "Delete Orange Money" })).toHaveCount(0);

  // On a phone the list is cards, nothing scrolls sideways, and the buttons are there.
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await noHorizontalScroll(page)).toBe(true);
  await custom.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete this payment method?" });
  await expect(dialog).toContainText(`${name} is deleted for good`);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status")).toHaveText("Payment method deleted");
  await expect(custom).toHaveCount(0);

  // The audit log has every step.
  await visit(page, "/admin/logs?targetType=payment_method");
  for (const action of ["Payment method edited", "Payment method added", "Payment method deleted"])
    await expect(page.getByRole("table").getByText(action).first()).toBeVisible();
  await admin.context.close();
});

test("the admin saves PayPal's keys: the page shows the secret's last four only, never the secret", async ({
  browser,
}) => {
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = admin.page;
  await visit(page, "/admin/gateways");
  const paypal = page.getByRole("form", { name: "PayPal Checkout" });
  await paypal.getByLabel("Client ID").fill("E2eClientId");
  await paypal.getByLabel("Client secret", { exact: true }).fill("e2e-paypal-secret-4242");
  await paypal.getByLabel("Webhook ID").fill("WH-E2E-1");
  await paypal.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The provider's settings are saved.")).toBeVisible();
  // The card's badge, beside its title.
  await expect(page.locator("#provider-paypal")).toContainText("Configured");
  await expect(paypal).toContainText("Saved: ••••4242. Leave empty to keep it.");
  await expect(paypal.getByLabel("Client secret", { exact: true })).toHaveValue("");
  await expect(paypal.getByLabel("Client ID")).toHaveValue("E2eClientId");
  expect(await page.content()).not.toContain("e2e-paypal-secret");
  const served = await page.request.get("/admin/gateways");
  expect(await served.text()).not.toContain("e2e-paypal-secret");
  // On a phone nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 800 });
  expect(await noHorizontalScroll(page)).toBe(true);
  await admin.context.close();
});
