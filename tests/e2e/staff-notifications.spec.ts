import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expectAccessible,
  newCustomerSignedIn,
  registerOverHttp,
  signedIn,
  visit,
  waitForReactOn,
  expect,
  test,
} from "./fixtures";

// Each admin has their own notification list. A new ticket tells every admin; the one who
// opens the bell and follows it has read it, the other admin has not.
test("an admin follows a new ticket's notification from the bell; a second admin still has it unread", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  // A second admin: a customer the first admin adds to the staff, as Support, on the Staff page.
  const guest = await browser.newContext();
  const colleague = await registerOverHttp(guest, { name: "Imane Staff" });
  await guest.close();
  // Registered and signed in over HTTP now; the customer opens the ticket once there are two admins.
  const buyer = await newCustomerSignedIn(browser, { name: "Omar Ticket" });

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, "/admin/staff");
  await admin.page.getByRole("button", { name: "Add a member" }).click();
  const dialog = admin.page.getByRole("dialog", { name: "Add a member to the staff" });
  await dialog.getByLabel("Email of the account").fill(colleague.email);
  await dialog.getByLabel("Role").selectOption("support");
  await dialog.getByRole("button", { name: "Add to the staff" }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.page.getByRole("status")).toHaveText("Imane Staff joined the staff.");

  // The customer opens a ticket: every admin is told, in the same transaction.
  await visit(buyer.page, "/support/new");
  await buyer.page.getByLabel("Department").selectOption("technical");
  await buyer.page.getByLabel("Subject").fill("My game server does not start");
  await buyer.page.getByLabel("Message").fill("It stops as soon as it starts.");
  await buyer.page.getByRole("button", { name: "Open ticket" }).click();
  await expect(buyer.page).toHaveURL(/\/support\/\d+\?opened=1/);
  const ticketId = /\/support\/(\d+)/.exec(buyer.page.url())![1]!;
  // The customer's own bell says nothing of the staff's business.
  const customerBell = buyer.page
    .getByRole("banner")
    .getByRole("button", { name: /^Notifications:/ });
  await waitForReactOn(customerBell);
  await customerBell.click();
  await expect(buyer.page.getByRole("menuitem", { name: /New ticket/ })).toHaveCount(0);
  await buyer.context.close();

  // The first admin: the bell in the admin bar names the unread count, lists the ticket with when it
  // came (in words, not an ISO string) and leads to it.
  await visit(admin.page, "/admin");
  const bell = admin.page.getByRole("button", { name: /^Notifications: [1-9]\d* unread$/ });
  await waitForReactOn(bell);
  await bell.click();
  const item = admin.page.getByRole("menuitem", {
    name: new RegExp(`New ticket #${ticketId} in Technical: My game server does not start`),
  });
  await expect(item).toHaveAttribute("href", `/admin/tickets/${ticketId}`);
  await expect(item.locator("time")).not.toHaveText(/\d{4}-\d{2}-\d{2}T/);
  await expect(item.locator("time")).toHaveText(/\d{4}/);
  await expect(admin.page.getByRole("menuitem", { name: "See all notifications" })).toHaveAttribute(
    "href",
    "/admin/notifications",
  );
  await expectAccessible(admin.page);
  await item.click();
  await expect(admin.page).toHaveURL(new RegExp(`/admin/tickets/${ticketId}$`));

  // Read for the first admin: their list says so.
  await visit(admin.page, "/admin/notifications");
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("Notifications");
  const list = admin.page.getByRole("table", { name: "Notifications" });
  const mine = list.getByRole("row").filter({ hasText: `New ticket #${ticketId} in` });
  await expect(mine.getByText("Read", { exact: true })).toBeVisible();
  await expectAccessible(admin.page);
  await admin.context.close();

  // Still unread for the second admin, until they mark theirs read.
  const second = await signedIn(browser, colleague.email, colleague.password);
  await visit(second.page, "/admin/notifications");
  const theirs = second.page
    .getByRole("table", { name: "Notifications" })
    .getByRole("row")
    .filter({ hasText: `New ticket #${ticketId} in` });
  await expect(theirs.getByText("Unread", { exact: true })).toBeVisible();
  await expect(
    second.page.getByRole("button", { name: /^Notifications: [1-9]\d* unread$/ }),
  ).toBeVisible();
  await second.page.getByRole("button", { name: "Mark all read" }).click();
  await expect(second.page.getByRole("status")).toHaveText(/notifications? marked read\.$/);
  await expect(theirs.getByText("Read", { exact: true })).toBeVisible();
  await expect(second.page.getByRole("button", { name: "Notifications: 0 unread" })).toBeVisible();
  await second.context.close();
});
