import Database from "better-sqlite3";
import type { Browser, Page } from "@playwright/test";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { e2eFolder } from "../support/scratch";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AUTH_SECRET,
  expect,
  newCustomerSignedIn,
  signedIn,
  test,
  visit,
} from "./fixtures";

// Cancelling a service on a phone (docs/self-service.md): at the end of its term, which stops its
// renewal and ends it at its expiry; and within 14 days of the order with a refund, which the staff
// decide and which credits the coins once. The server is one of this spec's own: the service lifecycle
// is switched on there, which on a shared server would act on every other spec's services. Time moves
// as service-lifecycle.spec.ts moves it, in the data: an admin sets the expiry back, and the order's
// moment is set back in the database for the window.

test.describe.configure({ mode: "serial" });

const PHONE = { width: 360, height: 740 };

let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer({
    folder: e2eFolder(`e2e-cancellation-${process.env.E2E_PORT ?? 3210}`),
    env: { ADMIN_EMAIL, ADMIN_PASSWORD, AUTH_SECRET, WORKER_POLL_MS: "100" },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

/** The admin adds coins on the customer's row of /admin/clients. */
async function addCoins(admin: Page, email: string, amount: string) {
  await visit(admin, `/admin/clients?q=${encodeURIComponent(email)}`);
  await admin.getByText("Add or remove coins").click();
  await admin.getByLabel("Amount (negative removes)").fill(amount);
  await admin.getByLabel("Reason").fill("Cancellation test");
  await admin.getByRole("button", { name: "Save" }).click();
  await expect(admin.getByRole("status")).toHaveText("Coins updated successfully");
}

/** The customer orders the first plan from the phone, and the admin approves it. */
async function orderedAndApproved(page: Page, admin: Page, email: string, serverName: string) {
  await visit(page, "/order?product=1");
  await page.getByLabel("Server name").fill(serverName);
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing/);
  await visit(admin, "/admin/orders?status=pending");
  await admin
    .getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.getByRole("status")).toContainText("approved");
}

/**
 * A customer on a phone, named `name`, with an active service of the first plan named `serverName`
 * (coins added by the admin, ordered, approved), and the admin who approved it.
 */
async function customerWithService(browser: Browser, name: string, serverName: string) {
  const base = server!.url;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, { baseURL: base });
  const buyer = await newCustomerSignedIn(browser, { name }, { baseURL: base, viewport: PHONE });
  await addCoins(admin.page, buyer.customer.email, "20");
  await orderedAndApproved(buyer.page, admin.page, buyer.customer.email, serverName);
  return { admin, buyer };
}

/** The customer's balance in coins, as the billing tab's ledger last wrote it. */
async function balanceRow(page: Page) {
  await visit(page, "/dashboard?tab=billing");
  return page.getByRole("table").filter({ hasText: "Balance after" }).locator("tbody tr");
}

test("a cancellation at the end of the term stops the renewal and ends the service at its expiry", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const base = server!.url;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, { baseURL: base });
  const buyer = await newCustomerSignedIn(
    browser,
    { name: "Yasmine Term" },
    { baseURL: base, viewport: PHONE },
  );
  const { page, customer } = buyer;
  await addCoins(admin.page, customer.email, "20");
  await orderedAndApproved(page, admin.page, customer.email, "Yasmine RP");

  // Ordered with its automatic renewal on; the customer cancels at the end of the term, with a reason.
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Automatic renewal from coins: on")).toBeVisible();
  await page.getByRole("link", { name: /^Cancel / }).click();
  await expect(page.getByRole("heading", { level: 2, name: /^Cancel / })).toBeVisible();
  const endOfTerm = page.getByRole("form", { name: "At the end of the term" });
  await endOfTerm.getByLabel("Why are you cancelling?").selectOption("notUsing");
  await endOfTerm.getByLabel("Anything to add? (optional)").fill("Our community moved on");
  await endOfTerm.getByRole("button", { name: "Cancel at the end of the term" }).click();
  await expect(page.getByText("Done: your service ends at its expiry.")).toBeVisible();
  await expect(page.getByTestId("cancel-state")).toHaveText(
    /^Your server runs until .+, then it ends\.$/,
  );
  await expect(page.getByRole("button", { name: "Keep my server" })).toBeVisible();

  // The services tab: the renewal is off and the service says it ends at its expiry.
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Automatic renewal from coins: off")).toBeVisible();
  await expect(page.getByText("Ends at expiry", { exact: true })).toBeVisible();
  const ledgerBefore = await (await balanceRow(page)).count();

  // Time moves: the admin sets the expiry back to yesterday, makes sure the lifecycle is on, runs it.
  await visit(admin.page, `/admin/services?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByRole("link", { name: /^Edit service #\d+$/ }).click();
  const edit = admin.page
    .locator("form")
    .filter({ has: admin.page.locator('input[value="edit"]') });
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await edit.getByLabel("Expiry date").fill(yesterday);
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByRole("status")).toHaveText("Service updated");
  await visit(admin.page, "/admin/settings#lifecycle");
  const lifecycle = admin.page.getByRole("form", { name: "Service lifecycle" });
  await lifecycle.getByRole("checkbox", { name: "Run the service lifecycle" }).check();
  await lifecycle.getByRole("button", { name: "Save" }).click();
  // A new install runs it already: saved, or nothing to save.
  await expect(lifecycle.getByRole("status")).toHaveText(/^(Settings saved|Nothing to save)/);
  await visit(admin.page, "/admin/automation");
  await admin.page.getByRole("button", { name: /^Run now: Service lifecycle/ }).click();

  // The service ended at its expiry: terminated, not renewed (no coins taken), not suspended.
  await expect(async () => {
    await visit(page, "/dashboard?tab=services");
    await expect(page.getByText("Terminated", { exact: true })).toBeVisible();
  }).toPass({ timeout: 30_000 });
  await expect(page.getByText("Suspended", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Cancel / })).toHaveCount(0);
  expect(await (await balanceRow(page)).count()).toBe(ledgerBefore);

  await admin.context.close();
  await buyer.context.close();
});

test("a refund within 14 days is asked on a phone, decided by the staff, and credits the coins once", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const base = server!.url;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, { baseURL: base });
  // Every refund waits for the staff: the self-service card's ceiling at 0.
  await visit(admin.page, "/admin/settings#selfService");
  const selfService = admin.page.getByRole("form", { name: "Self-service" });
  await selfService.getByLabel("Automatic refund ceiling (coins)").fill("0");
  await selfService.getByRole("button", { name: "Save" }).click();
  await expect(selfService.getByRole("status")).toHaveText("Settings saved");

  const buyer = await newCustomerSignedIn(
    browser,
    { name: "Karim Refund" },
    { baseURL: base, viewport: PHONE },
  );
  const { page, customer } = buyer;
  await addCoins(admin.page, customer.email, "10");
  await orderedAndApproved(page, admin.page, customer.email, "Karim RP");
  await visit(page, "/dashboard?tab=services");
  await page.getByRole("link", { name: /^Cancel / }).click();
  await expect(page).toHaveURL(/\/dashboard\/services\/\d+\/cancel$/);
  const cancelPath = new URL(page.url()).pathname;
  const refund = page.getByRole("form", { name: "Cancel now with a refund" });
  await expect(refund).toContainText("2.50 coins");
  await expect(refund).toContainText("You can ask until");

  // A reason that is not one of the list: refused with its message, nothing asked.
  await refund.getByLabel("Why are you cancelling?").evaluate((select: HTMLSelectElement) => {
    select.options[1]!.value = "notAReason";
    select.selectedIndex = 1;
  });
  await refund.getByRole("button", { name: "Cancel and ask for a refund" }).click();
  await expect(refund.getByText("Choose a reason from the list.")).toBeVisible();
  await expect(page.getByTestId("cancel-state")).toHaveCount(0);

  // The same page open twice: the first request is taken, the second refused with a message.
  const second = await buyer.context.newPage();
  await visit(second, cancelPath);
  const refundAgain = second.getByRole("form", { name: "Cancel now with a refund" });
  await refundAgain.getByLabel("Why are you cancelling?").selectOption("technicalProblems");
  await visit(page, cancelPath);
  await refund.getByLabel("Why are you cancelling?").selectOption("tooExpensive");
  await refund.getByRole("button", { name: "Cancel and ask for a refund" }).click();
  await expect(page.getByText("Your refund request is sent.")).toBeVisible();
  await expect(page.getByTestId("cancel-state")).toHaveText(
    "Your refund of 2.50 coins waits for our team's decision.",
  );
  await refundAgain.getByRole("button", { name: "Cancel and ask for a refund" }).click();
  await expect(
    second.getByText("A request for this service is already open: withdraw it first."),
  ).toBeVisible();
  await second.close();
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Refund requested", { exact: true })).toBeVisible();

  // The staff's queue: one request, approved once; the same click sent again is refused.
  await visit(admin.page, "/admin/refunds");
  const row = admin.page.getByRole("row", {
    name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")),
  });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("It costs too much");
  await expect(row).toContainText("2.50 coins");
  const approve = row.getByRole("button", { name: /^Approve refund request #\d+$/ });
  const id = (await approve.getAttribute("aria-label"))!.match(/#(\d+)$/)![1]!;
  await approve.click();
  await expect(admin.page.getByRole("status")).toHaveText(
    `Request #${id} approved: 2.50 coins refunded.`,
  );
  const replay = await admin.context.request.post("/admin/refunds", {
    form: { intent: "approve", id },
  });
  expect(replay.status()).toBe(409);

  // The customer: refunded, with its credit note; the coins came back once; the server ended.
  await visit(page, cancelPath);
  await expect(page.getByTestId("cancel-state")).toHaveText(
    "Refunded: 2.50 coins are back on your balance.",
  );
  await expect(page.getByRole("link", { name: /^HFC-/ })).toHaveCount(1);
  const entries = await balanceRow(page);
  await expect(entries.filter({ hasText: "+2.50" })).toHaveCount(1);
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Terminated", { exact: true })).toBeVisible();

  await admin.context.close();
  await buyer.context.close();
});

test("a refund after the 14 days is not offered, and a forged one is refused with nothing changed", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { admin, buyer } = await customerWithService(browser, "Omar Late", "Omar RP");
  const { page, customer } = buyer;

  // Time moves: the order was placed 14 days and a minute ago.
  const db = new Database(server!.databaseFile);
  try {
    db.prepare(
      "update orders set created_at = ? where user_id = (select id from users where email = ?)",
    ).run(new Date(Date.now() - 14 * 86_400_000 - 60_000).toISOString(), customer.email);
  } finally {
    db.close();
  }
  await visit(page, "/dashboard?tab=services");
  await page.getByRole("link", { name: /^Cancel / }).click();
  await expect(page).toHaveURL(/\/dashboard\/services\/\d+\/cancel$/);
  const cancelPath = new URL(page.url()).pathname;
  await expect(
    page.getByText(
      "A refund can be asked within 14 days of the order: that time has passed for this service.",
    ),
  ).toBeVisible();
  await expect(page.getByRole("form", { name: "Cancel now with a refund" })).toHaveCount(0);
  const forged = await buyer.context.request.post(cancelPath, {
    form: { intent: "refund", reason: "tooExpensive" },
  });
  expect(forged.status()).toBe(409);
  expect(await forged.text()).toContain("The 14 days to ask for a refund have passed.");
  await visit(page, "/dashboard?tab=services");
  await expect(page.getByText("Refund requested", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Active", { exact: true })).toBeVisible();

  await admin.context.close();
  await buyer.context.close();
});

test("the cancel page fits a 360 px phone in each language, its long reasons included", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { admin, buyer } = await customerWithService(
    browser,
    "Yasmine Langues",
    "Yasmine Langues RP",
  );
  const { page } = buyer;
  await visit(page, "/dashboard?tab=services");
  const path = (await page.getByRole("link", { name: /^Cancel / }).getAttribute("href"))!;
  // A select is as wide as its longest option: the French and Arabic reasons are the longest.
  for (const lang of ["en", "fr", "ar"]) {
    const switched = await page.request.post("/language", {
      form: { lang, redirectTo: path },
      maxRedirects: 0,
    });
    expect(switched.status()).toBe(302);
    await visit(page, path);
    await expect(page.getByTestId("service-cancel").locator("select").first()).toBeVisible();
    const { scroll, client } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(scroll, `${lang}: ${scroll} px wide on a ${client} px screen`).toBeLessThanOrEqual(
      client,
    );
  }
  await admin.context.close();
  await buyer.context.close();
});
