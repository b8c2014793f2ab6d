import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  signedIn,
  newCustomerSignedIn,
  registerOverHttp,
  signInOverHttp,
  visit,
  waitForReactOn,
  expect,
  test,
} from "./fixtures";

test("a coins ticket from the coin dialog: admin answers and adds coins, customer sees it all", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const buyer = await newCustomerSignedIn(browser, { name: "Salma Tickets" });
  await visit(buyer.page, "/dashboard");
  // A click before the page has hydrated is lost (as for a person).
  const coins = buyer.page.getByRole("button", { name: /0\.00 coins/ }).first();
  await waitForReactOn(coins);
  await coins.click();
  await buyer.page.getByRole("dialog").getByRole("link", { name: "Open a support ticket" }).click();
  await expect(buyer.page).toHaveURL(/\/support\/new\?topic=coins/);
  await expect(buyer.page.getByLabel("Department")).toHaveValue("billing");
  await expect(buyer.page.getByLabel("Subject")).toHaveValue("I would like to buy coins");
  await buyer.page.getByLabel("Message").fill("I want 50 coins, paid with <b>Orange Money</b>.");
  await buyer.page.getByRole("button", { name: "Open ticket" }).click();
  await expect(buyer.page).toHaveURL(/\/support\/\d+\?opened=1/);
  // Markup a customer types is shown as text.
  await expect(
    buyer.page.getByText("I want 50 coins, paid with <b>Orange Money</b>."),
  ).toBeVisible();
  const ticketUrl = new URL(buyer.page.url()).pathname;

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, "/admin/tickets?department=billing");
  // Other specs open coin tickets with the same subject in the same database: this one, by its link.
  await admin.page
    .getByRole("link", { name: "I would like to buy coins" })
    .and(admin.page.locator(`a[href$="${ticketUrl.replace("/support", "/tickets")}"]`))
    .click();
  await expect(admin.page).toHaveURL(
    new RegExp(`/admin${ticketUrl.replace("/support", "/tickets")}$`),
  );
  await admin.page
    .getByLabel("Reply", { exact: true })
    .fill("Payment received, your coins are on the way.");
  await admin.page.getByRole("button", { name: "Send reply" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Reply sent.");
  await admin.page.getByLabel("Amount of coins").fill("50");
  // Saving another form of the page reloads its data; the amount being typed stays.
  const priority = admin.page.locator("form").filter({ has: admin.page.getByLabel("Priority") });
  await priority.getByLabel("Priority").selectOption("high");
  await priority.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Ticket updated.");
  await expect(admin.page.getByLabel("Amount of coins")).toHaveValue("50");
  // A payment received, as the form says first, issues the customer's receipt.
  await expect(
    admin.page.getByRole("radio", { name: "A payment received: a payment receipt is issued" }),
  ).toBeChecked();
  await admin.page.getByRole("button", { name: "Add coins" }).click();
  // The page says what was added and the balance after (and the receipt's number).
  await expect(admin.page.getByRole("status")).toHaveText(
    /^\+50\.00 coins, balance now 50\.00; payment receipt HFR-\d{4}-\d{6} issued$/,
  );

  await visit(buyer.page, ticketUrl);
  await expect(buyer.page.getByText("Payment received, your coins are on the way.")).toBeVisible();
  await expect(buyer.page.getByText("Support team")).toBeVisible();
  await expect(buyer.page.getByRole("button", { name: /50\.00 coins/ }).first()).toBeVisible();
  await buyer.page
    .getByRole("button", { name: /Notifications: 2 unread/ })
    .first()
    .click();
  await expect(buyer.page.getByRole("menuitem", { name: /50\.00 coins were added/ })).toBeVisible();
  await expect(
    buyer.page.getByRole("menuitem", { name: /Our team answered your ticket/ }),
  ).toBeVisible();
  // The bell's texts are a namespace of their own: a page that shows no ticket carries no
  // tickets catalogue, and the bell still writes them.
  await visit(buyer.page, "/dashboard?tab=billing");
  await buyer.page
    .getByRole("button", { name: /^Notifications/ })
    .first()
    .click();
  await expect(buyer.page.getByRole("menuitem", { name: /50\.00 coins were added/ })).toBeVisible();
  const billing = Object.keys(
    JSON.parse((await buyer.page.locator("script#catalogues").textContent()) ?? "{}") as object,
  );
  expect(billing).toContain("notifications");
  expect(billing).not.toContain("tickets");

  await admin.context.close();
  await buyer.context.close();
});

test("dashboard tabs keep their place on reload and another customer's ticket is not found", async ({
  page,
}) => {
  const customer = await registerOverHttp(page);
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  await visit(page, "/dashboard");
  await expect(page.getByText("Active Services")).toBeVisible();
  await expect(page.getByText("Account Credit")).toBeVisible();
  await page.getByRole("link", { name: "Billing" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing/);
  await page.reload();
  const sections = page.getByRole("navigation", { name: "Dashboard sections" });
  await expect(sections.getByRole("link", { name: "Billing" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  // Only the open section: every section is /dashboard, so a NavLink would mark them all.
  await expect(sections.locator('[aria-current="page"]')).toHaveCount(1);
  await expect(page.getByText("Coin history")).toBeVisible();
  await visit(page, "/dashboard?tab=domains");
  await expect(page.getByText("You have no domains.", { exact: false })).toBeVisible();
  const response = await page.goto("/support/1");
  expect(response?.status()).toBe(404);
});

test("the admin's ticket page keeps its column packed beside the sidebar, with the ticket's badges", async ({
  browser,
}) => {
  const buyer = await newCustomerSignedIn(browser, { name: "Nadia Layout" });
  await visit(buyer.page, "/support/new");
  await buyer.page.getByLabel("Department").selectOption("technical");
  await buyer.page.getByLabel("Subject").fill("Server does not start");
  await buyer.page.getByLabel("Message").fill("It stopped after the update.");
  await buyer.page.getByRole("button", { name: "Open ticket" }).click();
  await expect(buyer.page).toHaveURL(/\/support\/\d+\?opened=1/);
  const adminPath = new URL(buyer.page.url()).pathname.replace("/support/", "/admin/tickets/");

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, {
    viewport: { width: 1280, height: 800 },
  });
  await visit(admin.page, adminPath);
  const main = admin.page.getByRole("main");
  const title = main.getByRole("heading", { level: 1 });
  await expect(title).toContainText("Server does not start");
  // Status, department and priority, as the customer's page shows them.
  const badges = title.locator("xpath=following-sibling::div[1]");
  await expect(badges).toContainText("Open");
  await expect(badges).toContainText("Technical");
  await expect(badges).toContainText("Medium");
  // Beside the taller sidebar the column's rows keep their own height: stretched, they shared the
  // sidebar's (the back link 160 px tall, the title 172 px with its text floating mid-row).
  const back = main.getByRole("link", { name: "Back to the queue" });
  const [backBox, titleBox, badgesBox] = await Promise.all(
    [back, title, badges].map((locator) => locator.boundingBox()),
  );
  expect(backBox!.height).toBeLessThan(40);
  expect(titleBox!.height).toBeLessThan(80);
  expect(badgesBox!.height).toBeLessThan(60);
  // The first message right under them.
  const message = main.getByText("It stopped after the update.");
  expect((await message.boundingBox())!.y - (badgesBox!.y + badgesBox!.height)).toBeLessThan(120);
  await admin.context.close();
  await buyer.context.close();
});
