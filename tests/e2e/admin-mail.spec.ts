import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expectAccessible,
  newCustomerSignedIn,
  signedIn,
  visit,
  expect,
  test,
} from "./fixtures";

// The e2e servers run without SMTP_URL (the embedded default): every message is kept in the outbox,
// and admins read it at /admin/mail (docs/mail.md).

test("an admin reads a message kept because no SMTP server is set", async ({ browser }) => {
  test.setTimeout(60_000);
  const buyer = await newCustomerSignedIn(browser, { name: "Idriss Outbox" });
  // The customer turns off the coins emails in the account tab; security mail is not offered.
  await visit(buyer.page, "/dashboard?tab=account");
  const coinsMail = buyer.page.getByLabel("Coins were added to or removed from my balance");
  await expect(coinsMail).toBeChecked();
  await coinsMail.uncheck();
  await buyer.page.getByRole("button", { name: "Save email choices" }).click();
  await expect(buyer.page.getByText("Your email choices have been saved.")).toBeVisible();
  await visit(buyer.page, "/dashboard?tab=account");
  await expect(coinsMail).not.toBeChecked();
  await expect(buyer.page.getByLabel("Our team answered one of my tickets")).toBeChecked();
  await expectAccessible(buyer.page);

  // The customer opens a ticket, which an admin answers: the answer mails the customer. (Staff hear of
  // new tickets at most once every ten minutes, a busy window's in one summary; other specs open
  // tickets too, so the customer's message is the one this test can count on: docs/support.md.)
  await visit(buyer.page, "/support/new");
  await buyer.page.getByLabel("Department").selectOption("technical");
  await buyer.page.getByLabel("Subject").fill("My panel does not load");
  await buyer.page.getByLabel("Message").fill("Since this morning the panel shows a blank page.");
  await buyer.page.getByRole("button", { name: "Open ticket" }).click();
  await expect(buyer.page).toHaveURL(/\/support\/\d+\?opened=1/);
  const ticketId = /\/support\/(\d+)/.exec(buyer.page.url())![1]!;
  await buyer.context.close();

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, `/admin/tickets/${ticketId}`);
  await admin.page
    .getByLabel("Reply", { exact: true })
    .fill("Please reload the panel once its cache is cleared.");
  await admin.page.getByRole("button", { name: "Send reply" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Reply sent.");
  await visit(admin.page, "/admin");
  // The dashboard's setup checklist says mail is kept, and leads to the outbox.
  const mailItem = admin.page.getByTestId("setup-mail");
  await expect(mailItem).toContainText("Email is not configured");
  await expect(mailItem).toHaveAttribute("data-done", "false");
  await mailItem.getByRole("link", { name: "See the outbox" }).click();
  await expect(admin.page).toHaveURL(/\/admin\/mail$/);
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("Email");
  await expect(admin.page.getByTestId("mail-transport")).toHaveText(
    "Email is not configured (no SMTP_URL): messages are kept here and not sent.",
  );

  // The server's worker writes the message and keeps it: the list shows it once it has.
  const subject = `Ticket #${ticketId} answered: My panel does not load`;
  const table = admin.page.getByRole("table", { name: "Email" });
  const row = table.getByRole("row").filter({ hasText: subject });
  await expect(async () => {
    await visit(admin.page, "/admin/mail?state=kept");
    await expect(row.first()).toContainText("Kept (no SMTP)");
  }).toPass({ timeout: 20_000 });
  await expectAccessible(admin.page);

  await row
    .first()
    .getByRole("link", {
      name: new RegExp(`^Read the message to .*: ${subject.replace(/[()#]/g, "\\$&")}$`),
    })
    .click();
  const opened = admin.page.getByTestId("opened-mail");
  await expect(opened.getByRole("heading", { level: 2 })).toHaveText(subject);
  await expect(opened).toContainText(buyer.customer.email);
  await expect(opened.getByTestId("opened-mail-text")).toContainText(
    `Our team answered your ticket #${ticketId}: My panel does not load.`,
  );
  await expect(opened.getByTestId("opened-mail-text")).toContainText(`/support/${ticketId}`);
  await expectAccessible(admin.page);
  await admin.context.close();
});
