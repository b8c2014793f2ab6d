import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  newCustomerSignedIn,
  signedIn,
  visit,
  expect,
  test,
} from "./fixtures";

// The client page: every place the admin panel names a client leads to one page with the account's
// profile, services, orders, tickets, coins and audit entries, and an admin's note.

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The client page's sections, each a heading over its table (or its empty line). */
async function expectSections(page: Page) {
  for (const title of [
    "Profile",
    "Admin note",
    "Services",
    "Orders",
    "Tickets",
    "Coin history",
    "Audit entries",
  ])
    await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible();
}

test("an admin opens a client from the list, an order and a ticket, and keeps a note on them", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const name = `Karim Client ${Date.now()}`;
  // Registered and signed in over HTTP now; the customer orders once the admin has given coins.
  const buyer = await newCustomerSignedIn(browser, { name });
  const customer = buyer.customer;

  // Coins for the customer, from the clients list.
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("100");
  await admin.page.getByLabel("Reason").fill("Paid by Orange Money, ticket 7");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");

  // The customer orders and asks a question.
  await visit(buyer.page, "/order?product=1");
  await buyer.page.getByLabel("Server name").fill("Karim's server");
  await buyer.page.getByRole("button", { name: "Place order" }).click();
  await expect(buyer.page).toHaveURL(/\/dashboard/);
  await visit(buyer.page, "/support/new");
  await buyer.page.getByLabel("Subject").fill("When will my server start?");
  await buyer.page.getByLabel("Message").fill("I ordered a minute ago.");
  await buyer.page.getByRole("button", { name: "Open ticket" }).click();
  await expect(buyer.page).toHaveURL(/\/support\/\d+/);

  // From the clients list: the name is the way in.
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByRole("link", { name, exact: true }).click();
  await expect(admin.page).toHaveURL(/\/admin\/clients\/[A-Za-z0-9_-]+$/);
  const clientUrl = new URL(admin.page.url()).pathname;
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expectSections(admin.page);
  const profile = admin.page.locator("dl").first();
  await expect(profile).toContainText(customer.email);
  await expect(profile).toContainText("Customer");
  await expect(profile).toContainText("Active");
  await expect(admin.page.getByRole("table", { name: "Coin history" })).toContainText(
    "Paid by Orange Money, ticket 7",
  );
  await expect(admin.page.getByRole("table", { name: "Orders" })).toContainText("Karim's server");
  await expect(admin.page.getByRole("table", { name: "Tickets" })).toContainText(
    "When will my server start?",
  );
  await expect(admin.page.getByRole("table", { name: "Audit entries" })).toContainText(
    "admin@hostfront.test",
  );

  // From an order row.
  await visit(admin.page, "/admin/orders?status=pending");
  const order = admin.page.getByRole("row", { name: new RegExp(escaped(customer.email)) });
  await order.getByRole("link", { name, exact: true }).click();
  await expect(admin.page).toHaveURL(new RegExp(`${escaped(clientUrl)}$`));
  await expectSections(admin.page);

  // From a ticket: the sidebar shows the client's orders and coins, and the name leads to the page.
  await visit(admin.page, "/admin/tickets");
  await admin.page
    .getByRole("link", { name: /When will my server start\?/ })
    .first()
    .click();
  await expect(admin.page).toHaveURL(/\/admin\/tickets\/\d+$/);
  const ticketUrl = new URL(admin.page.url()).pathname;
  const sidebar = admin.page.locator("aside").filter({ hasText: "Open the client page" });
  await expect(sidebar.getByRole("heading", { name: "Orders (1 pending)" })).toBeVisible();
  await expect(sidebar.getByRole("heading", { name: "Recent coin movements" })).toBeVisible();
  await expect(sidebar).toContainText("Paid by Orange Money, ticket 7");
  await expect(sidebar.getByRole("link", { name: "Open the client page" })).toHaveAttribute(
    "href",
    clientUrl,
  );
  await sidebar.getByRole("link", { name, exact: true }).click();
  await expect(admin.page).toHaveURL(new RegExp(`${escaped(clientUrl)}$`));

  // The note: saved, shown again, and written to the audit entries.
  const note = admin.page.getByLabel("Note", { exact: true });
  await note.fill("Pays by Orange Money; prefers French.");
  await admin.page.getByRole("button", { name: "Save note" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Note saved");
  await visit(admin.page, clientUrl);
  await expect(admin.page.getByLabel("Note", { exact: true })).toHaveValue(
    "Pays by Orange Money; prefers French.",
  );
  await expect(admin.page.getByRole("table", { name: "Audit entries" })).toContainText(
    "Client note edited",
  );

  // On a phone nothing scrolls sideways, the ticket page's sidebar included. The client page is the
  // one just loaded: the narrower window lays it out again without loading it a second time.
  await admin.page.setViewportSize({ width: 412, height: 915 });
  for (const path of [clientUrl, ticketUrl]) {
    if (path !== clientUrl) await visit(admin.page, path);
    await expect
      .poll(
        () =>
          admin.page.evaluate(
            () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
          ),
        { message: path },
      )
      .toBe(true);
  }

  // A customer is sent away, an id no account has says so.
  await visit(buyer.page, clientUrl);
  await expect(buyer.page).toHaveURL(/\/$/);
  await admin.page.setViewportSize({ width: 1280, height: 800 });
  const missing = await visit(admin.page, "/admin/clients/no-such-client");
  expect(missing?.status()).toBe(404);
  await expect(admin.page.getByRole("heading", { name: "Client not found" })).toBeVisible();
  await expect(admin.page.getByText(/No client has the id “no-such-client”/)).toBeVisible();

  // Last, as a language chosen in the address may stay the admin's: French and Arabic at 360 px.
  await admin.page.setViewportSize({ width: 360, height: 800 });
  for (const [lang, heading] of [
    ["fr", "Historique des coins"],
    ["ar", "سجل الكوينز"],
  ] as const) {
    await visit(admin.page, `${clientUrl}?lang=${lang}`);
    await expect(admin.page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    await expect
      .poll(
        () =>
          admin.page.evaluate(
            () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
          ),
        { message: lang },
      )
      .toBe(true);
  }

  await admin.context.close();
  await buyer.context.close();
});
