import { randomUUID } from "node:crypto";
import type { BrowserContext, Locator, Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  newCustomerSignedIn,
  signedIn,
  toast,
  visit,
  waitForReactOn,
  expect,
  test,
} from "./fixtures";

// A reply or a ticket credit sent twice is stored once, the forms come back empty with a confirmation,
// and the admin's status control follows the ticket.

/** A form as the browser would post it now: its action and its fields (its key among them). */
async function capturedPost(form: Locator) {
  return form.evaluate((element) => {
    const formElement = element as HTMLFormElement;
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(formElement)) body.append(name, String(value));
    return { action: formElement.action, body: body.toString() };
  });
}

/** Posts a captured form again from the page, as the browser resending it would (same key). */
async function postAgain(page: Page, post: { action: string; body: string }, times = 1) {
  await page.evaluate(
    async ({ action, body, times }) => {
      await Promise.all(
        Array.from({ length: times }, () =>
          fetch(action, {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body,
          }),
        ),
      );
    },
    { ...post, times },
  );
}

async function openTicket(page: Page, subject: string) {
  await visit(page, "/support/new?topic=coins");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Message").fill("I want 5 coins, paid with Orange Money.");
  const open = page.getByRole("button", { name: "Open ticket" });
  await waitForReactOn(open);
  await open.click();
  await expect(page).toHaveURL(/\/support\/\d+\?opened=1/);
  return new URL(page.url()).pathname;
}

/**
 * Opens a coins ticket over HTTP (the new-ticket form's post, with a fresh form key, no page loaded), for
 * the tests about what happens to a ticket once it is open; returns its page's path (/support/42).
 */
async function openTicketOverHttp(context: BrowserContext, subject: string) {
  const response = await context.request.post("/support/new", {
    form: {
      department: "billing",
      subject,
      priority: "medium",
      message: "I want 5 coins, paid with Orange Money.",
      idempotencyKey: randomUUID(),
    },
    maxRedirects: 0,
  });
  const location = response.headers()["location"] ?? "";
  expect(location, `POST /support/new answered ${response.status()}`).toMatch(
    /^\/support\/\d+\?opened=1$/,
  );
  return location.slice(0, location.indexOf("?"));
}

test("a customer's reply clears the box with a toast, and a reply sent twice is stored once", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { page, context } = await newCustomerSignedIn(browser, { name: "Yassine Replies" });
  const ticketUrl = await openTicket(page, "Coins for my server");

  const box = page.getByLabel("Your reply");
  const send = page.getByRole("button", { name: "Send reply" });
  await box.fill("Paid by Orange Money at 10:42, ref 77-A.");
  await waitForReactOn(send);
  await send.click();
  await expect(toast(page, "Your reply has been sent.")).toBeVisible();
  await expect(box).toHaveValue("");
  await expect(page.getByText("Paid by Orange Money at 10:42, ref 77-A.")).toHaveCount(1);
  // The customer reads their own ticket's state in their words, never the queue's "Customer reply".
  await expect(page.getByText("Awaiting support", { exact: true })).toBeVisible();
  await expect(page.getByText("Customer reply", { exact: true })).toHaveCount(0);

  // A double tap: stored once.
  await box.fill("Double tap");
  await send.dblclick();
  await expect(toast(page, "Your reply has been sent.")).toBeVisible();
  await expect(box).toHaveValue("");
  await visit(page, ticketUrl);
  await expect(page.getByText("Double tap", { exact: true })).toHaveCount(1);

  // The same form posted again with its key (a retry, the browser resending it), three times at once.
  await box.fill("Sent three times");
  const post = await capturedPost(page.locator("form", { has: box }));
  await postAgain(page, post, 3);
  await visit(page, ticketUrl);
  await expect(page.getByText("Sent three times", { exact: true })).toHaveCount(1);

  // Item 16: the dashboard's list of the customer's tickets says the same, and the sessions list names
  // the browser and system rather than the raw header.
  await visit(page, "/dashboard?tab=support");
  await expect(page.getByText("Awaiting support", { exact: true })).toBeVisible();
  await visit(page, "/dashboard?tab=account");
  await expect(page.getByText(/^Chrome \d+ on (Linux|Windows|macOS)$/).first()).toBeVisible();
  await expect(page.getByText(/Mozilla\/5\.0/)).toHaveCount(0);
  await context.close();
});

test("without JavaScript a reply is sent once and the box comes back empty", async ({
  browser,
}) => {
  const { context: plain, page: noScript } = await newCustomerSignedIn(
    browser,
    { name: "Nadia NoScript" },
    { javaScriptEnabled: false },
  );
  const ticketUrl = await openTicketOverHttp(plain, "Lag at night");
  await noScript.goto(ticketUrl);
  await noScript.getByLabel("Your reply").fill("Still lagging after 22:00");
  await noScript.getByRole("button", { name: "Send reply" }).click();
  await expect(noScript).toHaveURL(new RegExp(`${ticketUrl}$`));
  await expect(noScript.getByLabel("Your reply")).toHaveValue("");
  // The post was followed by a redirect: a reload asks for the page, it does not send the reply again.
  await noScript.reload();
  await expect(noScript.getByText("Still lagging after 22:00", { exact: true })).toHaveCount(1);
  await plain.close();
});

test("the admin's reply and ticket credit: forms reset, status follows, a replayed credit credits once", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const buyer = await newCustomerSignedIn(browser, { name: "Karim Credit" });
  const ticketUrl = await openTicketOverHttp(buyer.context, "Five coins please");
  await buyer.context.close();

  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, ticketUrl.replace("/support/", "/admin/tickets/"));
  const status = page.getByRole("combobox", { name: "Status" });
  await expect(status).toHaveValue("open");

  const reply = page.getByLabel("Reply", { exact: true });
  const send = page.getByRole("button", { name: "Send reply" });
  await reply.fill("Received, crediting now.");
  await waitForReactOn(send);
  await send.dblclick();
  await expect(page.getByRole("status")).toHaveText("Reply sent.");
  await expect(reply).toHaveValue("");
  // The status control shows what the reply made of the ticket, as the queue does.
  await expect(status).toHaveValue("answered");
  await expect(page.getByText("Received, crediting now.", { exact: true })).toHaveCount(1);

  const amount = page.getByLabel("Amount of coins");
  const note = page.getByLabel("Note (optional)");
  await amount.fill("5");
  await note.fill("Orange Money 77-A");
  const creditForm = page.locator("form", { has: amount });
  const firstCredit = await capturedPost(creditForm);
  await page.getByRole("button", { name: "Add coins" }).click();
  await expect(page.getByRole("status")).toHaveText(
    /^\+5\.00 coins, balance now 5\.00; payment receipt HFR-\d{4}-\d{6} issued$/,
  );
  await expect(amount).toHaveValue("");
  await expect(note).toHaveValue("");
  await expect(page.getByText("Balance: 5.00 coins")).toBeVisible();

  // The first click's post sent again (a retry, a resend): nothing more is credited.
  await postAgain(page, firstCredit, 2);
  await visit(page, ticketUrl.replace("/support/", "/admin/tickets/"));
  await expect(page.getByText("Balance: 5.00 coins")).toBeVisible();
  await context.close();
});
