import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  registerOverHttp,
  signedIn,
  uniqueEmail,
  visit,
  expect,
  test,
  expectAccessible,
  noHorizontalScroll,
} from "./fixtures";

// Every admin route of the spec with its title; the pages not built yet say 'coming soon'.
const pages: { path: string; title: string; comingSoon?: boolean }[] = [
  { path: "/admin", title: "Dashboard" },
  { path: "/admin/notifications", title: "Notifications" },
  { path: "/admin/clients", title: "Clients" },
  { path: "/admin/client-groups", title: "Client Groups", comingSoon: true },
  { path: "/admin/users", title: "Users" },
  { path: "/admin/orders", title: "Orders" },
  { path: "/admin/top-ups", title: "Top-ups" },
  { path: "/admin/refunds", title: "Refund requests" },
  { path: "/admin/invoices", title: "Invoices" },
  { path: "/admin/quotes", title: "Quotes", comingSoon: true },
  { path: "/admin/transactions", title: "Transactions" },
  { path: "/admin/gateways", title: "Payment Gateways" },
  { path: "/admin/products", title: "Products" },
  { path: "/admin/promotions", title: "Promotions" },
  { path: "/admin/services", title: "Services" },
  { path: "/admin/domains", title: "Domains", comingSoon: true },
  { path: "/admin/domain-pricing", title: "Domain Pricing", comingSoon: true },
  { path: "/admin/tickets", title: "Tickets" },
  { path: "/admin/tickets/replies", title: "Canned Replies" },
  { path: "/admin/knowledgebase", title: "Knowledgebase" },
  { path: "/admin/announcements", title: "Announcements" },
  { path: "/admin/downloads", title: "Downloads", comingSoon: true },
  { path: "/admin/chat", title: "Live Chat", comingSoon: true },
  { path: "/admin/contact-messages", title: "Contact Messages" },
  { path: "/admin/affiliates", title: "Affiliates" },
  { path: "/admin/email-marketing", title: "Email Marketing" },
  { path: "/admin/newsletter", title: "Newsletter Subscribers" },
  { path: "/admin/reports", title: "Reports" },
  { path: "/admin/analytics", title: "Analytics", comingSoon: true },
  { path: "/admin/utilities", title: "Utilities", comingSoon: true },
  { path: "/admin/logs", title: "Logs" },
  { path: "/admin/security", title: "Security" },
  { path: "/admin/automation", title: "Automation" },
  { path: "/admin/mail", title: "Email" },
  { path: "/admin/settings", title: "Settings" },
  { path: "/admin/staff", title: "Staff" },
];

const COMING_SOON = /coming soon/i;

test("every admin route opens in the shell with its title", async ({ browser }) => {
  // Thirty pages, one after the other, on a shared two-core machine.
  test.setTimeout(120_000);
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  // The list above is the sidebar: a page added to the menu but not here fails.
  const dashboard = await visit(page, "/admin");
  const nav = page.getByRole("navigation", { name: "Admin Panel" });
  await expect(nav.getByRole("link", { name: "Dashboard" })).toBeVisible();
  const menu = await nav
    .getByRole("link")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  expect(menu.filter((href) => href.startsWith("/admin")).sort()).toEqual(
    pages.map((p) => p.path).sort(),
  );
  for (const { path, title, comingSoon } of pages) {
    // The dashboard is the page already open. Each other page is waited on where it stands, so axe
    // checks it there instead of loading it again after the test.
    const response = path === "/admin" ? dashboard : await visit(page, path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText(title);
    await expect(page).toHaveTitle(new RegExp(`^${title} \\|`));
    const sidebar = page.getByRole("navigation", { name: "Admin Panel" });
    await expect(sidebar).toBeVisible();
    // The sidebar marks the page it is on.
    await expect(sidebar.locator('[aria-current="page"]'), path).toHaveAttribute("href", path);
    await expect(page.getByRole("link", { name: "Back to Site" })).toBeVisible();
    await expect(page.getByRole("search").first()).toBeVisible();
    const main = page.getByRole("main");
    if (comingSoon) await expect(main.getByText(COMING_SOON), path).toBeVisible();
    else await expect(main.getByText(COMING_SOON), path).toHaveCount(0);
  }
  await context.close();
});

test("the top bar: search finds a client and an order number, the user menu logs out", async ({
  browser,
}) => {
  test.setTimeout(45_000);
  const guest = await browser.newContext();
  const customer = await registerOverHttp(guest, { name: "Nadia Search" });
  await guest.close();
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin");
  const search = page.getByLabel("Search clients or order number");
  await search.fill(customer.email);
  await search.press("Enter");
  await expect(page).toHaveURL(/\/admin\/clients\?q=/);
  await expect(page.getByText("Nadia Search")).toBeVisible();

  await page.getByLabel("Search clients or order number").fill("nadia search");
  await page.getByLabel("Search clients or order number").press("Enter");
  await expect(page.getByText(customer.email)).toBeVisible();

  // A number that is no order falls back to the client search.
  await page.getByLabel("Search clients or order number").fill("#987654");
  await page.getByLabel("Search clients or order number").press("Enter");
  await expect(page).toHaveURL(/\/admin\/clients\?q=%23987654$/);
  await expect(page.getByText("No clients found.")).toBeVisible();

  await page.getByRole("button", { name: "Account menu" }).click();
  await expect(page.getByRole("menuitem", { name: "Settings" })).toBeVisible();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await context.close();
});

test("an admin edits a client, changes their coins and deletes them", async ({ browser }) => {
  test.setTimeout(45_000);
  const guest = await browser.newContext();
  const customer = await registerOverHttp(guest, { name: "Yasmine Edit" });
  await guest.close();
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  const row = page.getByRole("row", { name: /Yasmine Edit/ });
  await expect(row).toContainText("Customer");

  // Edit: an email another account has is refused, and the dialog stays open with the reason.
  await row.getByRole("button", { name: "Edit Yasmine Edit" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Yasmine Edit" });
  await dialog.getByLabel("Email").fill(ADMIN_EMAIL);
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByRole("status")).toContainText("Failed to update user");
  await expect(dialog.getByRole("status")).toContainText("User with this email already exists");
  await expectAccessible(page);

  const email = uniqueEmail("edited");
  await dialog.getByLabel("Name").fill("Yasmine Edited");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Save changes" }).click();
  // The dialog closes on success; until then the page behind it (inert under the native modal) still
  // shows the refusal of the first try beside the dialog's own.
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status")).toHaveText("User updated successfully");
  // The list was filtered by the old address; the new one finds them.
  await visit(page, `/admin/clients?q=${encodeURIComponent(email)}`);
  const edited = page.getByRole("row", { name: /Yasmine Edited/ });
  await expect(edited).toContainText(email);

  // Coins: the dialog previews the new total, the page confirms.
  await edited.getByText("Add or remove coins").click();
  const coins = page.getByRole("dialog");
  await coins.getByLabel("Amount (negative removes)").fill("12.5");
  await expect(coins.getByTestId("new-total")).toHaveText("New total: 12.50");
  await expectAccessible(page);
  await coins.getByLabel("Reason").fill("Paid by Orange Money");
  await coins.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Coins updated successfully");
  await expect(edited).toContainText("12.50");

  // Delete after a confirmation; admins have no delete button.
  await edited.getByRole("button", { name: "Delete Yasmine Edited" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Yasmine Edited?" });
  await expect(confirm).toContainText("Their orders, services and coin history stay on record.");
  await expectAccessible(page);
  await confirm.getByRole("button", { name: "Delete user" }).click();
  await expect(page.getByRole("status")).toHaveText("User deleted successfully");
  await expect(page.getByText("No clients found.")).toBeVisible();

  await visit(page, `/admin/clients?q=${encodeURIComponent(ADMIN_EMAIL)}`);
  const adminRow = page.getByRole("row", { name: new RegExp(ADMIN_EMAIL.replace(/\./g, "\\.")) });
  await expect(adminRow.getByRole("button", { name: /^Edit/ })).toBeVisible();
  await expect(adminRow.getByRole("button", { name: /^Delete/ })).toHaveCount(0);

  // The change and the coins are in the audit log and the ledger.
  await visit(page, "/admin/logs?action=user.delete");
  await expect(
    page.getByRole("table").getByText("User deleted", { exact: true }).first(),
  ).toBeVisible();
  await visit(page, "/admin/transactions?kind=admin_adjustment");
  await expect(page.getByRole("table").getByText("Paid by Orange Money").first()).toBeVisible();
  await context.close();
});

test("the admin menu is a drawer on a 375 px phone, without horizontal scrolling", async ({
  browser,
}) => {
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of ["/admin", "/admin/clients", "/admin/logs", "/admin/transactions"]) {
    await visit(page, path);
    expect(await noHorizontalScroll(page), path).toBe(true);
    // The desktop sidebar is hidden; the menu button opens the drawer.
    await expect(page.getByRole("navigation", { name: "Admin Panel" })).toBeHidden();
  }
  await page.getByRole("button", { name: "Open the admin menu" }).click();
  const drawer = page.getByRole("dialog");
  await expect(drawer.locator('[aria-current="page"]')).toHaveAttribute(
    "href",
    "/admin/transactions",
  );
  await expectAccessible(page);
  await drawer.getByRole("link", { name: "Tickets" }).click();
  await expect(page).toHaveURL(/\/admin\/tickets$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tickets");
  await expect(page.getByRole("dialog")).toBeHidden();
  await context.close();
});

test("the dashboard's setup checklist says what is left and leads there, on a 390 px phone and in Arabic", async ({
  browser,
}) => {
  test.setTimeout(45_000);
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin");
  const checklist = page.getByTestId("setup-checklist");
  await expect(checklist.getByRole("heading", { name: "Set up your shop" })).toBeVisible();
  await expect(checklist.getByRole("listitem")).toHaveCount(6);
  // Other specs set things up on this server, so only mail is known to be left: no SMTP_URL here.
  const mail = checklist.getByTestId("setup-mail");
  await expect(mail).toHaveAttribute("data-done", "false");
  await expect(mail).toContainText("To do");
  // Every item still open links to where it is done; a done one has no link.
  for (const item of await checklist.getByRole("listitem").all()) {
    const open = (await item.getAttribute("data-done")) === "false";
    await expect(item.getByRole("link")).toHaveCount(open ? 1 : 0);
  }
  await expect(page.getByRole("link", { name: /Top-ups to check/ })).toHaveAttribute(
    "href",
    "/admin/top-ups?state=proof_sent",
  );

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await noHorizontalScroll(page)).toBe(true);
  const outbox = mail.getByRole("link", { name: "See the outbox" });
  const box = (await outbox.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expectAccessible(page);

  // In Arabic the list reads right to left: each item's tick sits on the right of its text.
  await visit(page, "/admin?lang=ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(checklist.getByRole("heading", { name: "جهّز متجرك" })).toBeVisible();
  expect(await noHorizontalScroll(page)).toBe(true);
  const tick = (await mail.locator("svg").first().boundingBox())!;
  const title = (await mail.getByText("البريد الصادر").boundingBox())!;
  expect(tick.x).toBeGreaterThan(title.x + title.width);
  await expectAccessible(page);
  await mail.getByRole("link", { name: "عرض صندوق الصادر" }).click();
  await expect(page).toHaveURL(/\/admin\/mail$/);
  await context.close();
});

test("the sidebar collapses to icons on a desktop", async ({ browser }) => {
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin/clients");
  const sidebar = page.getByRole("navigation", { name: "Admin Panel" });
  const wide = (await sidebar.boundingBox())!.width;
  await page.getByRole("button", { name: "Collapse sidebar" }).click();
  await expect(page.getByRole("button", { name: "Expand sidebar" })).toBeVisible();
  const narrow = (await sidebar.boundingBox())!.width;
  expect(narrow).toBeLessThan(wide / 2);
  // Icons only, still named for screen readers and still marking the page.
  await expect(sidebar.getByRole("link", { name: "Clients", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(sidebar.getByText("Client Management")).toHaveCount(0);
  await context.close();
});
