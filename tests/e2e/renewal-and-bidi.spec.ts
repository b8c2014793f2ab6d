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
} from "./fixtures";

/** An amount as the English pages write it ("€12.50", "88.00 coins"), in cents. */
function cents(text: string): number {
  const match = /(\d[\d,]*\.\d{2})/.exec(text);
  if (!match) throw new Error(`no amount in ${text}`);
  return Math.round(Number(match[1]!.replace(/,/g, "")) * 100);
}

/** The admin adds (or, negative, removes) coins on the customer's row of /admin/clients. */
async function adjustCoins(admin: Page, email: string, amount: string) {
  await visit(admin, `/admin/clients?q=${encodeURIComponent(email)}`);
  await admin.getByText("Add or remove coins").click();
  await admin.getByLabel("Amount (negative removes)").fill(amount);
  await admin.getByLabel("Reason").fill("Renewal test");
  await admin.getByRole("button", { name: "Save" }).click();
  await expect(admin.getByRole("status")).toHaveText("Coins updated successfully");
}

/** The balance the header's coin button shows, in cents. */
async function headerBalance(page: Page): Promise<number> {
  const button = page.getByRole("button", { name: /coins/ }).first();
  return cents((await button.textContent()) ?? "");
}

/** A row of the renewal confirmation: what its <dd> says. */
function confirmationValue(page: Page, term: string) {
  return page
    .getByRole("region", { name: /Renew this service\?/ })
    .locator("div", { has: page.locator("dt", { hasText: term }) })
    .locator("dd");
}

test("a pending order is listed on the services tab, and a renewal asks first (also without JavaScript)", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const buyer = await newCustomerSignedIn(browser, { name: "Karim Renew" });
  const { customer, page } = buyer;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await adjustCoins(admin.page, customer.email, "100");

  await visit(page, "/order?product=1");
  await page.getByLabel("Server name").fill("Karim RP");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing/);

  // Waiting for approval: listed with its state, not "no service yet".
  await visit(page, "/dashboard?tab=services");
  const waiting = page.getByRole("list", { name: "Orders not active yet" });
  await expect(waiting.getByRole("listitem")).toHaveCount(1);
  await expect(waiting).toContainText("Karim RP");
  await expect(waiting.getByText("Pending", { exact: true })).toBeVisible();
  await expect(page.getByText("You have no services yet.")).toHaveCount(0);
  await expect(
    page.getByText("No active service yet: your order above is waiting for approval."),
  ).toBeVisible();

  await visit(admin.page, "/admin/orders?status=pending");
  await admin.page
    .getByRole("row", { name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.page.getByRole("status")).toContainText("approved");

  await visit(page, "/dashboard?tab=services");
  await expect(page.getByRole("list", { name: "Orders not active yet" })).toHaveCount(0);
  const before = await headerBalance(page);
  await page.getByRole("link", { name: /^Renew for / }).click();
  await expect(page).toHaveURL(/renew=\d+/);
  const confirmation = page.getByRole("region", { name: /Renew this service\?/ });
  await expect(confirmation).toBeVisible();
  await expect(page.getByRole("heading", { name: /Renew this service\?/ })).toBeFocused();
  const price = cents((await confirmationValue(page, "Price").textContent()) ?? "");
  const now = Date.parse((await confirmationValue(page, "Current expiry").textContent()) ?? "");
  const next = Date.parse((await confirmationValue(page, "New expiry").textContent()) ?? "");
  expect(next).toBeGreaterThan(now);
  expect(cents((await confirmationValue(page, "Your balance").textContent()) ?? "")).toBe(before);
  expect(cents((await confirmationValue(page, "Balance after renewal").textContent()) ?? "")).toBe(
    before - price,
  );
  // The price in euros, the balances in coins, as the header and the cards write a balance.
  await expect(confirmationValue(page, "Price")).toContainText("€");
  for (const term of ["Your balance", "Balance after renewal"])
    await expect(confirmationValue(page, term)).toHaveText(/^[\d,]+\.\d{2} coins$/);
  // Asking charged nothing; cancelling leaves it so.
  expect(await headerBalance(page)).toBe(before);
  await confirmation.getByRole("link", { name: "Cancel" }).click();
  await expect(confirmation).toHaveCount(0);
  expect(await headerBalance(page)).toBe(before);

  await page.getByRole("link", { name: /^Renew for / }).click();
  await page.getByRole("button", { name: "Confirm renewal" }).click();
  await expect(toast(page, "Your service has been renewed.")).toBeVisible();
  await expect(page.getByRole("region", { name: /Renew this service\?/ })).toHaveCount(0);
  await expect.poll(() => headerBalance(page)).toBe(before - price);

  // Without JavaScript: the same step, rendered by the server, and the same charge.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  expect(await signInOverHttp(plain, customer.email, customer.password)).toBe("/dashboard");
  const noScript = await plain.newPage();
  await noScript.goto("/dashboard?tab=services");
  await noScript.getByRole("link", { name: /^Renew for / }).click();
  await expect(noScript.getByRole("region", { name: /Renew this service\?/ })).toBeVisible();
  expect(
    cents((await confirmationValue(noScript, "Balance after renewal").textContent()) ?? ""),
  ).toBe(before - 2 * price);
  await noScript.getByRole("button", { name: "Confirm renewal" }).click();
  await expect(noScript).toHaveURL(/\/dashboard\/services$/);
  expect(await headerBalance(noScript)).toBe(before - 2 * price);
  await plain.close();

  // The admin refunds a renewal and takes back the time it added. The older renewal's term no longer
  // ends the service: its invoice says so instead of offering it.
  await visit(admin.page, `/admin/invoices?q=${encodeURIComponent(customer.email)}`);
  const numbers = await admin.page
    .getByRole("table")
    .getByRole("link", { name: /^HF-\d{4}-\d{6}$/ })
    .allTextContents();
  // Newest first: the two renewals, then the order.
  expect(numbers).toHaveLength(3);
  const [latest, older] = numbers as [string, string];
  await visit(admin.page, `/invoices/${older}`);
  await expect(admin.page.getByTestId("refund-service-note")).toContainText(
    "changed since this renewal",
  );
  await visit(admin.page, `/invoices/${latest}`);
  const takeBack = admin.page.getByLabel("Take back the time this renewal added");
  await expect(takeBack).toBeChecked();
  await admin.page.getByLabel("Reason").fill("Renewed by mistake");
  // Meanwhile the customer renews once more: the admin's form is stale, refused whole, and the page
  // shows where the service stands now.
  await page.getByRole("link", { name: /^Renew for / }).click();
  await page.getByRole("button", { name: "Confirm renewal" }).click();
  await expect(toast(page, "Your service has been renewed.")).toBeVisible();
  await admin.page.getByRole("button", { name: "Record the refund" }).click();
  await expect(
    admin.page.getByText(/^The service this renewal paid for changed since/),
  ).toBeVisible();
  await expect(takeBack).toHaveCount(0);
  await expect(admin.page.getByTestId("refund-service-note")).toContainText(
    "changed since this renewal",
  );
  // The newest renewal's invoice: refunded to the balance, its time taken back. The service renews
  // automatically (as ordered); the renewal was the customer's, so that stays on unless the admin says
  // otherwise, and this admin does.
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Automatic renewal from coins: on")).toBeVisible();
  await visit(admin.page, `/admin/invoices?q=${encodeURIComponent(customer.email)}`);
  await admin.page
    .getByRole("table")
    .getByRole("link", { name: /^HF-\d{4}-\d{6}$/ })
    .first()
    .click();
  await expect(takeBack).toBeChecked();
  const stopAutoRenew = admin.page.getByLabel("Also switch off its automatic renewal");
  await expect(stopAutoRenew).not.toBeChecked();
  await stopAutoRenew.check();
  await admin.page.getByLabel("Reason").fill("Renewed by mistake");
  await admin.page.getByRole("button", { name: "Record the refund" }).click();
  await expect(
    admin.page.getByText(
      /^Refund recorded: credit note HFC-\d{4}-\d{6}\. SAMP Starter now runs until .+\. Its automatic renewal is off\.$/,
    ),
  ).toBeVisible();
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Automatic renewal from coins: off")).toBeVisible();

  // A short balance: the price, what is missing, and the way to add coins; nothing to confirm.
  await adjustCoins(admin.page, customer.email, "-1000");
  await visit(page, "/dashboard?tab=services");
  await page.getByRole("link", { name: /^Renew for / }).click();
  const short = page.getByRole("region", { name: /Renew this service\?/ }).getByRole("alert");
  await expect(short).toContainText(
    `this costs €${(price / 100).toFixed(2)} and you need €${(price / 100).toFixed(2)} more`,
  );
  await expect(short.getByRole("link", { name: "Add coins" })).toHaveAttribute("href", "/coins");
  await expect(page.getByRole("button", { name: "Confirm renewal" })).toHaveCount(0);

  // On a phone, in French and in Arabic, the confirmation fits the screen.
  const renewUrl = new URL(page.url());
  await page.setViewportSize({ width: 360, height: 800 });
  for (const [lang, title] of [
    ["fr", "Renouveler ce service ?"],
    ["ar", "تجديد هذه الخدمة؟"],
  ] as const) {
    await visit(page, `${renewUrl.pathname}${renewUrl.search}&lang=${lang}`);
    const region = page.getByRole("region", { name: new RegExp(title.replace("?", "\\?")) });
    await expect(region.getByRole("alert").getByRole("link")).toBeVisible();
    const fits = await region.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return element.scrollWidth <= element.clientWidth && box.left >= 0 && box.right <= innerWidth;
    });
    expect(fits, lang).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`renewal-${lang}.png`), fullPage: true });
  }

  await admin.context.close();
  await buyer.context.close();
});

test("?lang= sticks for a signed-in customer, and mixed Arabic and Latin replies keep their order", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { page, context } = await newCustomerSignedIn(browser, { name: "Nadia Bidi" });

  await visit(page, "/dashboard?lang=fr");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await visit(page, "/dashboard");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await visit(page, "/support/new");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await visit(page, "/support/new?lang=en");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  await page.getByLabel("Subject").fill("Server down");
  await page.getByLabel("Message").fill("My server does not start.");
  await page.getByRole("button", { name: "Open ticket" }).click();
  await expect(page).toHaveURL(/\/support\/\d+/);
  const line = "خطأ 0x1F عند 192.168.1.10:7777";
  await page.getByLabel("Your reply").fill(line);
  await page.getByRole("button", { name: "Send reply" }).click();
  const body = page.locator("p[dir='auto']", { hasText: "192.168.1.10:7777" });
  await expect(body).toHaveText(line);
  expect(await body.evaluate((element) => getComputedStyle(element).unicodeBidi)).toBe("plaintext");
  // Each Latin unit with a digit sits in its own left-to-right isolate.
  await expect(body.locator("bdi[dir='ltr']")).toHaveText(["0x1F", "192.168.1.10:7777"]);
  // The line reads right to left: the Arabic word that opens it is on the right of the address.
  const box = async (text: string) =>
    body.evaluate((element, wanted) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(wanted);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + wanted.length);
        return range.getBoundingClientRect().x;
      }
      return null;
    }, text);
  expect(await box("خطأ")).toBeGreaterThan((await box("192.168.1.10:7777"))!);
  await context.close();
});

test("plan bullets keep a size with its unit in Arabic", async ({ page }) => {
  await visit(page, "/services/samp?lang=ar");
  // "تخزين NVMe بسعة 5 غيغابايت": the number, then its Arabic unit, read right to left as Arabic
  // writes it; no Latin "GB" left to be drawn on the wrong side of its number ("GB 5").
  const sizes = page
    .locator("li")
    .filter({ hasText: /تخزين NVMe بسعة \u2068?\d+\u2069? غيغابايت/ });
  await expect(sizes.first()).toBeVisible();
  await expect(page.locator("li").filter({ hasText: /\bGB\b/ })).toHaveCount(0);
});
