import { readFileSync } from "node:fs";
import type { Download, Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  newCustomerSignedIn,
  signedIn,
  toast,
  uniqueEmail,
  visit,
  expect,
  test,
  expectAccessible,
  noHorizontalScroll,
  serverMoment,
} from "./fixtures";

/** "€1,234.50" → 123450. */
function cents(text: string): number {
  return Math.round(Number(text.replace(/[^\d.-]/g, "")) * 100);
}

async function reportFigures(page: Page, month: string, type: string) {
  return {
    orders: Number(await page.getByTestId(`orders-${month}-${type}`).innerText()),
    coins: cents(await page.getByTestId(`coins-${month}-${type}`).innerText()),
  };
}

/** A downloaded file: its suggested name and its text (byte-order mark kept). */
async function downloaded(page: Page, link: string) {
  const [download] = (await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: link }).click(),
  ])) as [Download, unknown];
  return {
    name: download.suggestedFilename(),
    text: readFileSync((await download.path())!, "utf8"),
  };
}

test("a customer's order shows in the admin's report and in its CSV", async ({ browser }) => {
  test.setTimeout(60_000);
  // Registered and signed in over HTTP now; the customer orders once the admin has given coins.
  const buyer = await newCustomerSignedIn(browser, { name: "Karim Report" });
  const customer = buyer.customer;

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  // Other tests share the server: compare this month's "Other games" before and after.
  const reports = await visit(admin.page, "/admin/reports");
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("Reports");
  // The month by the server's clock, which the order placed seconds later counts in.
  const month = serverMoment(reports).toISOString().slice(0, 7);
  const before = await reportFigures(admin.page, month, "game");

  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("20");
  await admin.page.getByLabel("Reason").fill("Paid by Orange Money");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");

  await visit(buyer.page, "/order");
  await buyer.page.getByLabel("Service").selectOption({ label: "Game Pro — €14.99/month" });
  await buyer.page.getByLabel("Server name").fill("Karim's world");
  await buyer.page.getByRole("button", { name: "Place order" }).click();
  await expect(buyer.page).toHaveURL(/\/dashboard\/billing$/);
  await expect(
    toast(buyer.page, "Order submitted successfully! It's now pending admin approval."),
  ).toBeVisible();
  await buyer.context.close();

  await visit(admin.page, "/admin/reports");
  const after = await reportFigures(admin.page, month, "game");
  expect(after).toEqual({ orders: before.orders + 1, coins: before.coins + 1499 });

  const csv = await downloaded(admin.page, "Download CSV");
  expect(csv.name).toMatch(/^hostfront-report-\d{4}-\d{2}-\d{2}\.csv$/);
  // Named after the day the server wrote it (its Date header; a download's answer is not one the
  // page reports, so the file is asked for once more).
  const again = await admin.page.request.get("/admin/reports.csv");
  const today = serverMoment(again).toISOString().slice(0, 10);
  expect(again.headers()["content-disposition"]).toBe(
    `attachment; filename="hostfront-report-${today}.csv"`,
  );
  expect(csv.text.startsWith("\uFEFFmonth,product_type,orders,coins_spent_eur\r\n")).toBe(true);
  const euros = (after.coins / 100).toFixed(2);
  expect(csv.text).toContain(`\r\n${month},game,${after.orders},${euros}\r\n`);
  // Twelve months, four types at least, a line each.
  expect(csv.text.trimEnd().split("\r\n").length).toBeGreaterThanOrEqual(1 + 12 * 4);
  await admin.context.close();
});

test("a visitor's message and subscription reach the admin, who reads, exports and removes them", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const guest = await browser.newContext();
  const visitor = await guest.newPage();
  const email = uniqueEmail("visitor");
  const subject = `Question ${Date.now()}`;
  await visit(visitor, "/contact");
  await visitor.getByLabel("Name").fill("Salma Visitor");
  await visitor.getByLabel("Email", { exact: true }).fill(email);
  await visitor.getByLabel("Subject").fill(subject);
  await visitor.getByLabel("Message").fill("Hello,\nis DDoS protection included?");
  await visitor.getByRole("button", { name: "Send Message" }).click();
  await expect(visitor.getByText("Your message has been sent!")).toBeVisible();
  await visitor.getByLabel("Email address").fill(email);
  await visitor.getByRole("button", { name: "Subscribe" }).click();
  await expect(visitor.getByRole("status").getByText("Thanks for subscribing!")).toBeVisible();
  await guest.close();

  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin/contact-messages");
  await expect(page.getByTestId("unread-count")).toContainText(/\d+ unread/);
  await page.getByRole("searchbox", { name: "Search messages" }).fill(subject);
  await page.getByRole("button", { name: "Apply" }).click();
  const item = page.getByRole("listitem").filter({ hasText: subject });
  await expect(item).toHaveAttribute("data-unread", "true");
  await expect(item.getByText("Unread", { exact: true })).toBeVisible();

  // Opening reads it and shows it whole, with a reply link to the sender.
  await item.getByRole("button", { name: `Open the message “${subject}”` }).click();
  const opened = page.getByTestId("opened-message");
  await expect(opened.getByRole("heading", { name: subject })).toBeVisible();
  // Plain text with its line break kept.
  expect(await opened.getByTestId("opened-text").innerText()).toBe(
    "Hello,\nis DDoS protection included?",
  );
  await expect(opened.getByTestId("opened-text")).toHaveAttribute("dir", "auto");
  await expect(opened.getByRole("link", { name: "Reply by email" })).toHaveAttribute(
    "href",
    `mailto:${email}?subject=${encodeURIComponent(`Re: ${subject}`)}`,
  );
  await expect(item).toHaveAttribute("data-unread", "false");
  await opened.getByRole("button", { name: "Mark as unread" }).click();
  await expect(page.getByRole("status")).toHaveText("Message marked as unread");
  await expect(item).toHaveAttribute("data-unread", "true");

  // Delete, after a confirmation.
  await item.getByRole("button", { name: `Delete the message “${subject}”` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this message?" });
  await expect(confirm).toContainText(email);
  await expectAccessible(page);
  await confirm.getByRole("button", { name: "Delete message" }).click();
  await expect(page.getByRole("status")).toHaveText("Message deleted");
  await expect(page.getByText("No message matches this search.")).toBeVisible();

  // The subscriber: listed, in the CSV of all, then removed after a confirmation.
  await visit(page, `/admin/newsletter?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Newsletter Subscribers");
  await expect(page.getByTestId("subscriber-count")).toContainText(/\d+ subscribers?/);
  const row = page.getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) });
  await expect(row).toBeVisible();
  const csv = await downloaded(page, "Download CSV");
  expect(csv.name).toMatch(/^hostfront-newsletter-subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(csv.text.startsWith("\uFEFFemail,subscribed_at\r\n")).toBe(true);
  expect(csv.text).toMatch(new RegExp(`\\r\\n${email.replace(/[.+]/g, "\\$&")},\\d{4}-`));
  await row.getByRole("button", { name: `Remove ${email}` }).click();
  await page
    .getByRole("alertdialog", { name: "Remove this subscriber?" })
    .getByRole("button", { name: "Remove subscriber" })
    .click();
  await expect(page.getByRole("status")).toHaveText("Subscriber removed");
  await expect(page.getByText("No subscriber matches this search.")).toBeVisible();
  await context.close();
});

test("the reports, messages and subscribers pages fit a 375 px phone, also in Arabic", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.setViewportSize({ width: 375, height: 800 });
  const labels = page.getByTestId("report-chart").first().locator("li");
  for (const path of ["/admin/reports", "/admin/contact-messages", "/admin/newsletter"]) {
    for (const lang of ["en", "ar"]) {
      await visit(page, `${path}?lang=${lang}`);
      await expect(page.locator("html")).toHaveAttribute("dir", lang === "ar" ? "rtl" : "ltr");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await noHorizontalScroll(page), `${path} ${lang}`).toBe(true);
      if (path !== "/admin/reports") continue;
      // On the report's own loads: in Arabic the months run right to left, the oldest bar's label on
      // the right; in English it is on the left.
      await expect(labels).toHaveCount(12);
      const oldest = (await labels.first().boundingBox())!.x;
      const newest = (await labels.last().boundingBox())!.x;
      if (lang === "ar") expect(oldest).toBeGreaterThan(newest);
      else expect(oldest).toBeLessThan(newest);
    }
  }
  await context.close();
});
