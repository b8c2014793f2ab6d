import { randomBytes } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  PAYMENTS_BASE_URL,
  expectAccessible,
  newCustomerSignedIn,
  noHorizontalScroll,
  signedIn,
  visit,
  expect,
  test,
} from "./fixtures";
import { openInwiMoney, sayPaid } from "./top-up-steps";

// What staff read about a customer on a phone: the client page's invoices, top-up requests and mail,
// each a link to where it is whole, and the mail log searched by recipient; long addresses wrap after
// their "@" or before a dot, never inside a word.

// On the server where payment methods are switched on: the customer buys coins with a top-up there.
test.use({ baseURL: PAYMENTS_BASE_URL });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * An address longer than a 390 px screen's line and without a hyphen, so that it has to wrap and offers
 * the browser no place of its own to do it.
 */
function longEmail(prefix: string) {
  return `${prefix}.${randomBytes(3).toString("hex")}.benalialaoui@correspondence.example.com`;
}

/**
 * Where the text of `element` goes on to a new line, as the characters either side ("@|c"): read from
 * each character's box, as the browser laid them out.
 */
async function lineBreaks(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const chars: { c: string; top: number }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (box) chars.push({ c: text[i]!, top: box.top });
      }
    }
    const breaks: string[] = [];
    for (let i = 1; i < chars.length; i++)
      if (chars[i]!.top > chars[i - 1]!.top + 2) breaks.push(`${chars[i - 1]!.c}|${chars[i]!.c}`);
    return breaks;
  });
}

/** An address laid out on several lines, each break after its "@" or before a dot. */
async function expectWrappedAtSensiblePoints(address: Locator) {
  const breaks = await lineBreaks(address);
  expect(breaks.length, "the address is longer than the line").toBeGreaterThan(0);
  for (const at of breaks) expect(at).toMatch(/^@\||^.\|\.$/);
}

async function customerWithTopUp(browser: Parameters<typeof newCustomerSignedIn>[0], name: string) {
  const buyer = await newCustomerSignedIn(browser, { name, email: longEmail("lalla.nadia") });
  await visit(buyer.page, "/dashboard/top-up");
  await buyer.page.getByRole("button", { name: "10", exact: true }).click();
  await buyer.page.getByRole("radio", { name: /Inwi Money/ }).check();
  await buyer.page.getByRole("button", { name: "Request the top-up" }).click();
  const reference = (await buyer.page.locator("[data-reference]").textContent())!.trim();
  await sayPaid(buyer.page);
  return { ...buyer, reference };
}

async function approve(admin: Page, reference: string) {
  await visit(admin, `/admin/top-ups?q=${reference}`);
  const row = admin.getByRole("row", { name: new RegExp(reference) });
  await row.getByRole("button", { name: `Approve ${reference}` }).click();
  await expect(admin.getByRole("status")).toHaveText(
    `Top-up ${reference} approved: coins credited.`,
  );
}

test("on a phone, the client page lists the customer's invoices, top-ups and mail, each a link", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await openInwiMoney(admin.page);
  const name = `Nadia Records ${Date.now()}`;
  const buyer = await customerWithTopUp(browser, name);
  await approve(admin.page, buyer.reference);
  const email = buyer.customer.email;

  // The admin, on a phone, finds the client through the queue's search.
  const phone = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, PHONE);
  const page = phone.page;
  await visit(page, `/admin/top-ups?q=${encodeURIComponent(email)}`);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const clientUrl = new URL(page.url()).pathname;

  // The receipt of the approved top-up, the request, and the messages the customer was sent.
  const invoices = page.getByRole("table", { name: "Invoices" });
  const receipt = invoices.getByRole("link", { name: /^HFR-\d{4}-\d{6}$/ });
  await expect(receipt).toBeVisible();
  const topUps = page.getByRole("table", { name: "Top-up requests" });
  await expect(topUps).toContainText("MAD 110.00");
  await expect(topUps).toContainText("Approved");
  const mail = page.getByRole("table", { name: "Mail sent" });
  await expect(mail.getByRole("link", { name: /^Read the message: / }).first()).toBeVisible();
  await expect(mail).toContainText("Coins added or removed");
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectAccessible(page);

  // The address wraps after its "@" or before a dot, in the profile and in the mail's rows.
  await expectWrappedAtSensiblePoints(
    page.locator("dd").filter({ hasText: email }).locator('span[dir="ltr"]'),
  );
  await expectWrappedAtSensiblePoints(
    mail.locator('span[dir="ltr"]').filter({ hasText: email }).first(),
  );

  // Each row leads to the thing whole: the receipt's page, the request in the queue, the message.
  const number = (await receipt.textContent())!.trim();
  await receipt.click();
  await expect(page).toHaveURL(new RegExp(`/invoices/${number}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(number);

  await visit(page, clientUrl);
  await topUps.getByRole("link", { name: `Show ${buyer.reference} in the top-up queue` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/top-ups\\?q=${buyer.reference}$`));
  // That request alone, of every customer's.
  await expect(page.getByRole("row").filter({ hasText: /TU-/ })).toHaveCount(1);
  await expect(page.getByRole("row", { name: new RegExp(buyer.reference) })).toContainText(
    "Approved",
  );

  await visit(page, clientUrl);
  // The newest message: the coins the approval credited (kept unwritten here, without SMTP, so the
  // row names its kind; the mail log writes it when it is opened).
  const first = mail.getByRole("link", { name: /^Read the message: / }).first();
  await expect(first).toHaveText("Coins added or removed");
  await first.click();
  await expect(page).toHaveURL(/\/admin\/mail\?to=.*&open=\d+$/);
  const opened = page.getByTestId("opened-mail");
  await expect(opened.getByRole("heading", { level: 2 })).toHaveText(
    "10.00 coins added to your balance",
  );
  await expect(opened).toContainText(email);

  await phone.context.close();
  await admin.context.close();
  await buyer.context.close();
});

test("on a phone, the mail log is searched by recipient, and keeps the search while a message is read", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const name = `Omar Search ${Date.now()}`;
  const buyer = await newCustomerSignedIn(browser, { name, email: longEmail("omar.search") });
  const other = await newCustomerSignedIn(browser, { name: "Someone Else" });
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  // Each gets a message: coins from the admin.
  for (const customer of [buyer.customer, other.customer]) {
    await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
    await admin.page.getByText("Add or remove coins").click();
    await admin.page.getByLabel("Amount (negative removes)").fill("5");
    await admin.page.getByLabel("Reason").fill("Welcome gift");
    await admin.page.getByRole("button", { name: "Save" }).click();
    await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");
  }
  await admin.context.close();

  const phone = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, PHONE);
  const page = phone.page;
  await visit(page, "/admin/mail");
  // Part of the address, in capitals: the search ignores case.
  const part = buyer.customer.email.split(".benalialaoui")[0]!.toUpperCase();
  await page.getByLabel("Recipient").fill(part);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/mail\\?to=${encodeURIComponent(part)}`));
  const table = page.getByRole("table", { name: "Email" });
  await expect(table).toContainText(buyer.customer.email);
  for (const row of await table.getByRole("row").all())
    if (await row.locator("td").count()) await expect(row).toContainText(buyer.customer.email);
  await expect(table).not.toContainText(other.customer.email);
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectWrappedAtSensiblePoints(
    table.locator('span[dir="ltr"]').filter({ hasText: buyer.customer.email }).first(),
  );
  await expectAccessible(page);

  // Reading a message keeps the search; closing it comes back to the searched list.
  await table
    .getByRole("link", { name: /^Read the message to / })
    .first()
    .click();
  await expect(page).toHaveURL(/[?&]to=.*&open=\d+|[?&]open=\d+.*[?&]to=/);
  await expect(page.getByTestId("opened-mail")).toContainText(buyer.customer.email);
  await page.getByRole("link", { name: "Close the message" }).click();
  await expect(page).toHaveURL(new RegExp(`\\?to=${encodeURIComponent(part)}$`));

  // A search that finds nothing says so; a wildcard is a letter.
  await visit(page, "/admin/mail?to=%25");
  await expect(page.getByText("No email matches these filters.")).toBeVisible();
  await phone.context.close();
  await buyer.context.close();
  await other.context.close();
});
