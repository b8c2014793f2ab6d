import { randomUUID } from "node:crypto";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  newCustomerSignedIn,
  noHorizontalScroll,
  signedIn,
  test,
  visit,
  waitForReactOn,
} from "./fixtures";

// Viewing the site as a customer (ADR 57): the owner opens a client's page on a phone, views the site as
// them (their dashboard and a ticket, with the banner), is refused a reply, and leaves the view, which
// the client page's audit entries record.

const PHONE = { viewport: { width: 360, height: 740 } };

test("the owner views a customer's site on a phone, read-only, and leaves", async ({ browser }) => {
  test.setTimeout(120_000);
  const name = `Nadia Viewed ${Date.now()}`;
  const subject = "My server restarts every hour";
  const customer = await newCustomerSignedIn(browser, { name });
  // The customer's ticket, opened over HTTP (the new-ticket form's post).
  const opened = await customer.context.request.post("/support/new", {
    form: {
      department: "technical",
      subject,
      priority: "medium",
      message: "Since yesterday evening.",
      idempotencyKey: randomUUID(),
    },
    maxRedirects: 0,
  });
  const location = opened.headers()["location"] ?? "";
  expect(location).toMatch(/^\/support\/\d+\?opened=1$/);
  const ticketPath = location.slice(0, location.indexOf("?"));

  const owner = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, PHONE);
  const page = owner.page;
  await visit(page, `/admin/clients?q=${encodeURIComponent(customer.customer.email)}`);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/clients\/[A-Za-z0-9_-]+$/);
  const clientPath = new URL(page.url()).pathname;

  const start = page.getByRole("button", { name: "View as this customer" });
  await start.scrollIntoViewIfNeeded();
  await waitForReactOn(start);
  await start.click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const banner = page.getByRole("complementary", { name: "Customer view" });
  const leave = banner.getByRole("button", { name: "Leave this view" });
  const said = `You are viewing the site as ${name} (${customer.customer.email}). Read-only.`;
  await expect(banner).toContainText(said);
  await expect(leave).toBeInViewport();
  // The customer's own dashboard: their name, their ticket.
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  expect(await noHorizontalScroll(page)).toBe(true);

  await visit(page, ticketPath);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(subject);
  await expect(banner).toContainText(said);
  await expect(leave).toBeInViewport();
  expect(await noHorizontalScroll(page)).toBe(true);

  // A reply, as the customer would send it: refused, nothing stored.
  const box = page.getByLabel("Your reply");
  const send = page.getByRole("button", { name: "Send reply" });
  await box.fill("Sent while viewing as the customer");
  await waitForReactOn(send);
  await send.click();
  await expect(page.getByRole("heading", { level: 1, name: "Read-only view" })).toBeVisible();
  await expect(page.getByText(/nothing can be changed in this view/)).toBeVisible();
  await expect(leave).toBeVisible();
  expect(await noHorizontalScroll(page)).toBe(true);
  await visit(page, ticketPath);
  await expect(page.getByText("Sent while viewing as the customer")).toHaveCount(0);

  // A post that skips the page (a crafted one, from the same browser): 403, nothing done.
  const crafted = await owner.context.request.post("/dashboard/account", {
    form: { intent: "profile", name: "Renamed while viewing" },
    maxRedirects: 0,
  });
  expect(crafted.status()).toBe(403);

  // The admin pages wait until the view is left: they lead to the customer's dashboard.
  await visit(page, "/admin");
  await expect(page).toHaveURL(/\/dashboard$/);

  await leave.click();
  await expect(page).toHaveURL(new RegExp(`${clientPath}$`));
  await expect(page.getByRole("complementary", { name: "Customer view" })).toHaveCount(0);
  const audit = page.getByRole("table", { name: "Audit entries" });
  await expect(audit).toContainText("Started viewing as the customer");
  await expect(audit).toContainText("Stopped viewing as the customer");

  // The customer, in their own browser, never saw any of it.
  await visit(customer.page, "/dashboard");
  await expect(customer.page.getByRole("heading", { level: 1 })).toContainText(name);
  await expect(customer.page.getByRole("complementary", { name: "Customer view" })).toHaveCount(0);
  await visit(customer.page, ticketPath);
  await expect(customer.page.getByText("Sent while viewing as the customer")).toHaveCount(0);
});
