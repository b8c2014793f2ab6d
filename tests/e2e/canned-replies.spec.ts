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

// Canned replies (docs/self-service.md): on a phone, a member of the Support staff writes a reply in
// English, French and Arabic; in a French customer's ticket they insert it, read it in French with the
// customer's name and the ticket's number filled in, add a line and send it; the customer reads it.

const PHONE = { viewport: { width: 360, height: 740 } };

test("a support member writes a canned reply in three languages and sends it, in French, to a French customer", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = `${Date.now()}-${randomUUID().slice(0, 4)}`;

  // A member of the Support staff: an account of their own, given the role by the owner.
  const guest = await browser.newContext();
  const member = await registerOverHttp(guest, { name: `Sara Support ${stamp}` });
  await guest.close();
  const owner = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const added = await owner.context.request.post("/admin/staff", {
    form: { intent: "add", email: member.email, role: "support" },
    maxRedirects: 0,
  });
  expect(added.status()).toBe(200);
  await owner.context.close();

  // A customer who reads French, with a technical ticket.
  const name = `Yasmine Benali ${stamp}`;
  const customer = await newCustomerSignedIn(browser, { name }, PHONE);
  const language = await customer.context.request.post("/language", {
    form: { lang: "fr", redirectTo: "/dashboard" },
    maxRedirects: 0,
  });
  expect(language.status()).toBe(302);
  const opened = await customer.context.request.post("/support/new", {
    form: {
      department: "technical",
      subject: `Mon serveur ne démarre pas ${stamp}`,
      priority: "medium",
      message: "Il s'arrête tout de suite.",
      idempotencyKey: randomUUID(),
    },
    maxRedirects: 0,
  });
  const location = opened.headers()["location"] ?? "";
  expect(location).toMatch(/^\/support\/\d+\?opened=1$/);
  const ticketId = location.slice("/support/".length, location.indexOf("?"));

  // The member, on a phone, finds the canned replies under Support in the menu.
  const support = await signedIn(browser, member.email, member.password, PHONE);
  const page = support.page;
  await visit(page, "/admin");
  await page.getByRole("button", { name: "Open the admin menu" }).click();
  const menu = page.getByRole("dialog", { name: "Admin Panel" });
  await menu.getByRole("link", { name: "Canned Replies" }).click();
  await expect(page).toHaveURL(/\/admin\/tickets\/replies$/);
  await expect(page.getByRole("heading", { level: 1, name: "Canned Replies" })).toBeVisible();

  // Writes a reply in the three languages.
  const title = `Server restarted ${stamp}`;
  const add = page.getByRole("button", { name: "New reply" });
  await waitForReactOn(add);
  await add.click();
  const dialog = page.getByRole("dialog", { name: "New canned reply" });
  // Without an English text it is refused, with a message, and what was typed stays.
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Department").selectOption("technical");
  await dialog
    .getByLabel("Text in French")
    .fill("Bonjour {name}, votre serveur a redémarré (ticket #{ticket}).");
  await dialog.getByRole("button", { name: "Add the reply" }).click();
  await expect(
    dialog.getByText("Write the reply in English: a customer whose language has no text reads it."),
  ).toBeVisible();
  await expect(dialog.getByLabel("Title")).toHaveValue(title);
  await dialog
    .getByLabel("Text in English")
    .fill("Hello {name}, your server was restarted (ticket #{ticket}).");
  await dialog
    .getByLabel("Text in Arabic")
    .fill("مرحبًا {name}، أُعيد تشغيل خادمك (التذكرة رقم {ticket}).");
  await dialog.getByRole("button", { name: "Add the reply" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status")).toHaveText(`Canned reply “${title}” added.`);
  const row = page.locator("tr", { hasText: title });
  await expect(row).toContainText("Technical");
  for (const language of ["English", "French", "Arabic"]) await expect(row).toContainText(language);
  expect(await noHorizontalScroll(page)).toBe(true);

  // In the customer's ticket, the reply comes in French with the customer's name, after what was typed.
  await visit(page, `/admin/tickets/${ticketId}`);
  const box = page.getByLabel("Reply", { exact: true });
  const picker = page.getByLabel("Canned reply");
  await expect(
    page.getByText("Inserted in French, the customer's language", { exact: false }),
  ).toBeVisible();
  await waitForReactOn(picker);
  await box.fill("Merci pour votre patience.");
  await picker.selectOption({ label: title });
  const french = `Bonjour ${name}, votre serveur a redémarré (ticket #${ticketId}).`;
  await expect(box).toHaveValue(`Merci pour votre patience.\n\n${french}`);
  // Back to its first choice, the picker may insert again; the button for pages without scripts is gone.
  await expect(picker).toHaveValue("");
  await expect(page.getByRole("button", { name: "Insert" })).toBeHidden();
  expect(await noHorizontalScroll(page)).toBe(true);

  // Edited before sending.
  await box.fill(`${french}\nVous pouvez vous reconnecter.`);
  const send = page.getByRole("button", { name: "Send reply" });
  await send.click();
  await expect(page.getByRole("status")).toHaveText("Reply sent.");
  await expect(box).toHaveValue("");
  await support.context.close();

  // The customer reads it on their ticket.
  await visit(customer.page, `/support/${ticketId}`);
  await expect(customer.page.getByText(french, { exact: false })).toBeVisible();
  await expect(
    customer.page.getByText("Vous pouvez vous reconnecter.", { exact: false }),
  ).toBeVisible();
  await customer.context.close();
});

test("without scripts, the picker's button puts the reply after what was typed", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const stamp = `${Date.now()}-${randomUUID().slice(0, 4)}`;
  const name = `Omar Haddad ${stamp}`;
  const customer = await newCustomerSignedIn(browser, { name });
  const opened = await customer.context.request.post("/support/new", {
    form: {
      department: "billing",
      subject: `Coins ${stamp}`,
      priority: "medium",
      message: "I paid by Orange Money.",
      idempotencyKey: randomUUID(),
    },
    maxRedirects: 0,
  });
  const location = opened.headers()["location"] ?? "";
  const ticketId = location.slice("/support/".length, location.indexOf("?"));
  await customer.context.close();

  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, {
    ...PHONE,
    javaScriptEnabled: false,
  });
  const page = admin.page;
  await page.goto(`/admin/tickets/${ticketId}`);
  const box = page.getByLabel("Reply", { exact: true });
  await box.fill("Thanks, checking now.");
  // A reply seeded on a new install, in English for a customer who never chose a language.
  await page.getByLabel("Canned reply").selectOption({ label: "Your payment was received" });
  await page.getByRole("button", { name: "Insert" }).click();
  // A post: the draft is never written into the address (nor the history, nor the access log).
  await expect(page).toHaveURL(new RegExp(`/admin/tickets/${ticketId}$`));
  await expect(box).toHaveValue(
    `Thanks, checking now.\n\nHello ${name},\n\nWe have received your payment, thank you. The coins have been added to your balance: you can use them right away from your dashboard.\n\nThe support team`,
  );
  // Nothing was sent: the thread still holds the customer's message alone.
  await expect(page.getByText("Thanks, checking now.", { exact: true })).toHaveCount(0);
  await admin.context.close();
});
