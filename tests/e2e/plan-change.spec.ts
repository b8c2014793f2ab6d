import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { startFakePanel, type FakePanel } from "../support/fake-pterodactyl";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  newCustomerSignedIn,
  signedIn,
  toast,
  visit,
  expect,
  test,
} from "./fixtures";
import { connectFakePanel } from "./panel-steps";

// A customer on a phone moves a server of the (fake) game panel to a bigger plan in the middle of its
// term (docs/self-service.md): the admin allows the path in the product editor, the confirmation shows
// the prorated amount, the new limits and the balance after, the customer is charged exactly that (the
// balance, the invoice), and the worker sends the panel the new build. A plan of another type, or one
// no path leads to, posted by hand, is refused with its message and changes nothing. The fake panel
// runs in this test's process; the server's worker calls it over loopback.

let panel: FakePanel;
test.beforeAll(async () => {
  panel = await startFakePanel({ installReads: 1 });
});
test.afterAll(async () => {
  await panel.close();
});

/** An amount as the English pages write it ("€1.45", "5.55 coins"), in cents. */
function cents(text: string): number {
  const match = /(\d[\d,]*\.\d{2})/.exec(text);
  if (!match) throw new Error(`no amount in ${text}`);
  return Math.round(Number(match[1]!.replace(/,/g, "")) * 100);
}

/**
 * A SA-MP product made on the panel at `price` euros a month, with `memory` MB and `disk` MB on the
 * panel and its specs for the storefront, as the admin makes one in the editor.
 */
async function panelProduct(
  admin: Page,
  name: string,
  plan: { price: string; memory: string; disk: string; ramGb: string; storageGb: string },
) {
  await visit(admin, "/admin/products");
  await admin.getByRole("link", { name: "New product" }).click();
  const form = admin.getByRole("main");
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Type", { exact: true }).selectOption("samp");
  await form.getByLabel("Description", { exact: true }).fill("Made by the plan change test");
  await form.getByLabel("Price per month (€)").fill(plan.price);
  await form.getByLabel("RAM (GB)").fill(plan.ramGb);
  await form.getByLabel("Storage (GB)").fill(plan.storageGb);
  await form.getByRole("button", { name: "Create product" }).click();
  await expect(admin.getByRole("status")).toHaveText("Product created");
  await admin.getByRole("link", { name: `Edit ${name}` }).click();
  await form.getByLabel("Egg", { exact: true }).selectOption({ label: "GTA San Andreas: SA-MP" });
  await form.getByRole("button", { name: "Choose egg" }).click();
  await expect(form.getByLabel("Rcon password (RCON_PASS)")).toBeVisible();
  await form.getByLabel("How servers are set up").selectOption("pterodactyl");
  await form.getByLabel("Memory (MB)").fill(plan.memory);
  await form.getByLabel("Disk (MB)").fill(plan.disk);
  await form.getByLabel("Variable that takes the order's slots").selectOption("MAX_PLAYERS");
  await form.getByLabel("Version (VERSION)", { exact: true }).fill("0.3.7");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.getByRole("status")).toHaveText("Product saved");
}

/** The balance the header's coin button shows, in cents. */
async function headerBalance(page: Page): Promise<number> {
  const button = page.getByRole("button", { name: /coins/ }).first();
  return cents((await button.getAttribute("aria-label")) ?? (await button.textContent()) ?? "");
}

/** The value of a row of the change's confirmation. */
function confirmationValue(page: Page, term: string) {
  return page
    .getByRole("region", { name: /^Change to / })
    .locator("div", { has: page.locator("dt", { hasText: term }) })
    .locator("dd");
}

test("an upgrade mid-term charges the prorated amount, invoices it and resizes the server on the panel", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const small = `Plan S ${tag}`;
  const large = `Plan L ${tag}`;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await connectFakePanel(admin.page, panel);
  await panelProduct(admin.page, small, {
    price: "3",
    memory: "1024",
    disk: "5120",
    ramGb: "1",
    storageGb: "5",
  });
  await panelProduct(admin.page, large, {
    price: "6",
    memory: "2048",
    disk: "10240",
    ramGb: "2",
    storageGb: "10",
  });

  // The admin lets the small plan's customers move to the large one.
  await visit(admin.page, "/admin/products?type=samp");
  await admin.page.getByRole("link", { name: `Edit ${small}` }).click();
  const paths = admin.page.getByTestId("plan-paths");
  await expect(paths.getByLabel("MTA Starter")).toHaveCount(0);
  await paths.getByLabel(large, { exact: true }).check();
  await admin.page.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Product saved");

  // A customer on a phone buys the small plan with coins the admin added; the server is made.
  const buyer = await newCustomerSignedIn(
    browser,
    { name: "Salma Upgrade" },
    { viewport: { width: 360, height: 740 } },
  );
  const { customer, page } = buyer;
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("10");
  await admin.page.getByLabel("Reason").fill("Paid by Orange Money");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");
  await visit(page, "/order");
  await page.getByLabel("Service").selectOption({ label: `${small} — €3.00/month` });
  await page.getByLabel("Server name").fill("Salma RP");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(
    toast(page, "Order submitted successfully! It's now pending admin approval."),
  ).toBeVisible();
  await visit(admin.page, "/admin/orders?status=pending");
  await admin.page
    .getByRole("row", { name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.page.getByRole("status")).toContainText("approved");
  await expect(async () => {
    await visit(page, "/dashboard/services");
    await expect(page.getByText("Open game panel")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const server = panel.servers.find((each) => each.name === "Salma RP")!;
  expect(server.memory).toBe(1024);

  // Half-way through its term: the admin sets its expiry fifteen days from today.
  const expiry = new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10);
  await visit(admin.page, `/admin/services?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByRole("link", { name: /^Edit service #\d+$/ }).click();
  const edit = admin.page
    .locator("form")
    .filter({ has: admin.page.locator('input[value="edit"]') });
  await edit.getByLabel("Expiry date").fill(expiry);
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByRole("status")).toHaveText("Service updated");

  // The customer's way: "Change plan" on the service, the large plan, its confirmation.
  await visit(page, "/dashboard/services");
  const change = page.getByRole("link", { name: "Change plan" });
  const href = (await change.getAttribute("href"))!;
  const serviceId = Number(/\/dashboard\/services\/(\d+)\/plan/.exec(href)![1]);
  await change.click();
  await expect(page).toHaveURL(/\/dashboard\/services\/\d+\/plan$/);
  const choices = page.getByTestId("plan-choices");
  await expect(choices.locator(":scope > li")).toHaveCount(1);
  await expect(choices).toContainText(large);
  await choices.getByRole("link", { name: `Choose the ${large} plan` }).click();
  const amount = cents((await confirmationValue(page, "Charged now").textContent()) ?? "");
  // Half of the €3.00 a month more, give or take the month's length and the minutes gone by.
  expect(amount).toBeGreaterThan(120);
  expect(amount).toBeLessThan(180);
  await expect(confirmationValue(page, "New limits")).toContainText("2 GB RAM");
  await expect(confirmationValue(page, "New limits")).toContainText("10 GB NVMe storage");
  const balance = cents((await confirmationValue(page, "Your balance").textContent()) ?? "");
  expect(balance).toBe(700);
  expect(
    cents((await confirmationValue(page, "Balance after the change").textContent()) ?? ""),
  ).toBe(balance - amount);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= 360)).toBe(true);
  await page.getByRole("button", { name: "Confirm and pay" }).click();
  await expect(
    toast(page, "Your service is on its new plan: the difference was paid from your coins."),
  ).toBeVisible();
  await expect(page.getByRole("main").getByText(large).first()).toBeVisible();

  // Charged exactly that: the balance, and the invoice of the change.
  expect(await headerBalance(page)).toBe(balance - amount);
  await visit(page, "/dashboard/billing");
  const invoiceLink = page.getByRole("link", { name: /^HF-\d{4}-\d{6}$/ }).first();
  await invoiceLink.click();
  await expect(page.getByText(/Plan change of server Salma RP/)).toBeVisible();
  await expect(page.getByText(`${small} → ${large}`, { exact: false })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(`€${(amount / 100).toFixed(2)}`);

  // The worker sends the panel the new build; the server keeps its port.
  const port = server.allocationId;
  await expect.poll(() => server.memory, { timeout: 30_000 }).toBe(2048);
  expect(server).toMatchObject({ disk: 10240, allocationId: port });
  expect(panel.requestCount("PATCH /servers/{server}/build")).toBe(1);

  // Posted by hand: a plan of another type, and one no path leads to. Refused, nothing changed.
  await visit(page, "/order");
  const optionValue = async (label: RegExp) =>
    Number(
      await page
        .getByLabel("Service")
        .locator("option", { hasText: label })
        .first()
        .getAttribute("value"),
    );
  const otherType = await optionValue(/^MTA Starter/);
  const noPath = await optionValue(/^SAMP Ultimate/);
  for (const [toProductId, message] of [
    [otherType, "A service can only change to a plan of the same type."],
    [noPath, "This service cannot change to that plan. Choose one of the plans offered."],
  ] as const) {
    const response = await page.request.post(`/dashboard/services/${serviceId}/plan`, {
      form: {
        intent: "change-plan",
        toProductId: String(toProductId),
        idempotencyKey: `hand-${tag}-${toProductId}-0000000000`,
        shownAmount: "0",
        shownDirection: "upgrade",
      },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain(message);
  }
  await visit(page, "/dashboard/services");
  expect(await headerBalance(page)).toBe(balance - amount);
  await expect(page.getByRole("main").getByText(large).first()).toBeVisible();
  expect(panel.requestCount("PATCH /servers/{server}/build")).toBe(1);

  await admin.context.close();
  await buyer.context.close();
});
