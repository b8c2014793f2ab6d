import { randomUUID } from "node:crypto";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  newCustomerSignedIn,
  noHorizontalScroll,
  registerOverHttp,
  signedIn,
  test,
  visit,
  waitForReactOn,
} from "./fixtures";

// Staff roles (ADR 57, docs/staff.md): the owner adds a support member on /admin/staff; that member,
// on a phone, answers a ticket and views a customer's site as them, and is refused the payment
// methods, a coin change above Support's cap and the staff page.

const PHONE = { viewport: { width: 360, height: 740 } };

test("the owner adds a support member, who answers a ticket, views a customer and is refused the rest", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  // The future member: an account of their own first (the staff page adds existing accounts).
  const guest = await browser.newContext();
  const member = await registerOverHttp(guest, { name: `Sara Support ${stamp}` });
  await guest.close();
  // A customer with a question.
  const name = `Yassine Client ${stamp}`;
  const customer = await newCustomerSignedIn(browser, { name });
  const subject = `My server will not start ${stamp}`;
  const opened = await customer.context.request.post("/support/new", {
    form: {
      department: "technical",
      subject,
      priority: "medium",
      message: "It stops at once.",
      idempotencyKey: randomUUID(),
    },
    maxRedirects: 0,
  });
  const location = opened.headers()["location"] ?? "";
  expect(location).toMatch(/^\/support\/\d+\?opened=1$/);
  const ticketId = location.slice("/support/".length, location.indexOf("?"));

  // The owner adds the member with the Support role.
  const owner = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(owner.page, "/admin/staff");
  const add = owner.page.getByRole("button", { name: "Add a member" });
  await waitForReactOn(add);
  await add.click();
  const dialog = owner.page.getByRole("dialog", { name: "Add a member to the staff" });
  await dialog.getByLabel("Email of the account").fill(member.email);
  await dialog.getByLabel("Role").selectOption("support");
  await dialog.getByRole("button", { name: "Add to the staff" }).click();
  await expect(dialog).toBeHidden();
  await expect(owner.page.getByRole("row", { name: new RegExp(member.name) })).toContainText(
    "Support",
  );
  await owner.context.close();

  // The member signs in on a phone: the admin panel, with only what Support may use in its menu.
  const support = await signedIn(browser, member.email, member.password, PHONE);
  const page = support.page;
  await visit(page, "/admin");
  await page.getByRole("button", { name: "Open the admin menu" }).click();
  const menu = page.getByRole("dialog", { name: "Admin Panel" });
  await expect(menu.getByRole("link", { name: "Tickets" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Clients" })).toBeVisible();
  for (const hidden of ["Payment Gateways", "Staff", "Settings"])
    await expect(menu.getByRole("link", { name: hidden, exact: true })).toHaveCount(0);
  await page.keyboard.press("Escape");

  // Answers the ticket.
  await visit(page, `/admin/tickets/${ticketId}`);
  await page.getByLabel("Reply", { exact: true }).fill("Try a restart from your server's page.");
  const send = page.getByRole("button", { name: "Send reply" });
  await waitForReactOn(send);
  await send.click();
  await expect(page.getByRole("status")).toHaveText("Reply sent.");
  expect(await noHorizontalScroll(page)).toBe(true);

  // Refused the payment methods and the staff page: the page says which permission is missing.
  await visit(page, "/admin/gateways");
  await expect(
    page.getByRole("heading", { level: 1, name: "Not part of your role" }),
  ).toBeVisible();
  await expect(page.getByText("gateways.manage", { exact: true })).toBeVisible();
  expect(await noHorizontalScroll(page)).toBe(true);
  await visit(page, "/admin/staff");
  await expect(
    page.getByRole("heading", { level: 1, name: "Not part of your role" }),
  ).toBeVisible();
  await expect(page.getByText("staff.manage", { exact: true })).toBeVisible();

  // A coin change above Support's cap (20 coins a day by default) is refused; the balance stays.
  await visit(page, `/admin/clients?q=${encodeURIComponent(customer.customer.email)}`);
  const coins = page.getByText("Add or remove coins");
  await waitForReactOn(coins);
  await coins.click();
  const coinDialog = page.getByRole("dialog");
  await coinDialog.getByLabel("Amount (negative removes)").fill("50");
  await coinDialog.getByLabel("Reason").fill("Sorry for the downtime");
  await coinDialog.getByRole("button", { name: "Save" }).click();
  await expect(coinDialog.getByRole("status")).toContainText(/up to 20 coins/);
  await visit(customer.page, "/coins");
  await expect(customer.page.getByText("Sorry for the downtime")).toHaveCount(0);

  // Views the customer's site as them, read-only, and leaves.
  await visit(page, `/admin/clients?q=${encodeURIComponent(customer.customer.email)}`);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/clients\/[A-Za-z0-9_-]+$/);
  const start = page.getByRole("button", { name: "View as this customer" });
  await start.scrollIntoViewIfNeeded();
  await waitForReactOn(start);
  await start.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const banner = page.getByRole("complementary", { name: "Customer view" });
  await expect(banner).toContainText(`You are viewing the site as ${name}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  expect(await noHorizontalScroll(page)).toBe(true);
  await banner.getByRole("button", { name: "Leave this view" }).click();
  await expect(page).toHaveURL(/\/admin\/clients\/[A-Za-z0-9_-]+$/);

  await support.context.close();
  await customer.context.close();
});
