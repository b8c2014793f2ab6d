import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { startFakePanel, type FakePanel } from "../support/fake-pterodactyl";
import { startFakeYouCanPay, type FakeYouCanPay } from "../support/fake-youcanpay";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { e2eFolder } from "../support/scratch";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AUTH_SECRET,
  expect,
  fillRegisterForm,
  signedIn,
  submitLogin,
  test,
  toast,
  uniqueEmail,
  USER_PASSWORD,
  visit,
  waitForPage,
} from "./fixtures";
import { connectFakePanel, createPanelProduct } from "./panel-steps";

// Instant setup as a new customer meets it on a phone: they confirm their address from the mail, buy
// coins by card on YouCan Pay's page (the double), see the coins, order a SA-MP plan that activates when
// paid, and read their server's address, with no one on the staff doing anything between the payment
// and the address. The admin only configures beforehand: the providers' local network, YouCan Pay's
// keys and method, the game panel, the product. The server is one of this spec's own: it sends mail
// (an SMTP server in this process, so addresses are confirmed), and its worker calls the double and the
// fake panel, both in this process, over loopback.

test.describe.configure({ mode: "serial" });

const PHONE = { width: 390, height: 844 };
/** The promise: from the payment to a ready server in under a minute. Not stretched (scaled). */
const PAY_TO_SERVER_MS = 60_000;

let smtp: TestSmtpServer | undefined;
let server: OwnServer | undefined;
let panel: FakePanel | undefined;
let youcanpay: FakeYouCanPay | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpServer();
  panel = await startFakePanel({ installReads: 1 });
  youcanpay = await startFakeYouCanPay();
  server = await startOwnServer({
    folder: e2eFolder(`e2e-instant-${process.env.E2E_PORT ?? 3210}`),
    env: {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      AUTH_SECRET,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Hostfront <no-reply@hostfront.test>",
      WORKER_POLL_MS: "100",
      // A server's install is looked at this often (15 s in production): the fake panel's end at once.
      PANEL_POLL_MS: "300",
    },
  });
  youcanpay.webhookUrl = `${server.url}/hooks/payments/youcanpay`;
});

test.afterAll(async () => {
  await server?.stop();
  await youcanpay?.close();
  await panel?.close();
  await smtp?.close();
});

/** The verification link of the latest message sent to `email` (the worker sends it in the background). */
async function linkSentTo(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mail = smtp!.received.filter((each) => each.to.includes(email)).at(-1);
        link = mail?.text?.match(/https?:\/\/\S+\/verify-email\?token=\S+/)?.[0];
        return link;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();
  return link!;
}

/** A screenshot of the phone's screen with `shown` in view, kept with the test's results to look at. */
async function keep(page: Page, name: string, shown?: Locator) {
  await shown?.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

/** The element stands inside the phone's screen, with the page's 16 px margin on both sides. */
async function expectWithinMargins(element: Locator) {
  const box = (await element.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(16);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width - 16);
}

/** A message of the payments catalogue in `lang`. */
function paymentsText(lang: "en" | "fr" | "ar", path: string): string {
  const catalogue = JSON.parse(
    readFileSync(`app/i18n/locales/${lang}/payments.json`, "utf8"),
  ) as Record<string, unknown>;
  return path
    .split(".")
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], catalogue) as string;
}

/**
 * The admin's configuration, once: providers allowed on the local network, YouCan Pay's keys pointing at
 * the double, its card method open at 11.00 MAD a coin, the game panel connected and a product on it that
 * activates when paid.
 */
async function configure(admin: Page, product: string) {
  await visit(admin, "/admin/settings");
  const payments = admin.getByRole("form", { name: "Online payments" });
  await payments.getByLabel("Allow a provider's API address on the local network").check();
  await payments.getByRole("button", { name: "Save" }).click();
  await expect(payments.getByRole("status")).toHaveText("Settings saved");

  await visit(admin, "/admin/gateways");
  const provider = admin.getByRole("form", { name: "YouCan Pay" });
  await provider.getByLabel("Mode").selectOption("sandbox");
  await provider.getByLabel("API address").fill(youcanpay!.apiUrl);
  await provider.getByLabel("Public key").fill(youcanpay!.publicKey);
  await provider.getByLabel("Private key", { exact: true }).fill(youcanpay!.privateKey);
  await provider.getByRole("button", { name: "Save" }).click();
  await expect(toast(admin, "The provider's settings are saved.")).toBeVisible();
  await expect(
    admin.locator("#provider-youcanpay").getByText("Configured", { exact: true }),
  ).toBeVisible();
  // The address the page tells the admin to give YouCan Pay is the one the double notifies.
  await expect(provider.getByLabel("Webhook address to give the provider")).toHaveText(
    youcanpay!.webhookUrl!,
  );
  await expect(provider.getByLabel("Private key", { exact: true })).toHaveValue("");
  await expect(provider.getByText(`Saved: ••••${youcanpay!.privateKey.slice(-4)}.`)).toBeVisible();

  const card = admin.getByRole("row", { name: /Card \(YouCan Pay\)/ });
  await card.getByRole("link", { name: "Edit Card (YouCan Pay)" }).click();
  const method = admin.getByRole("main");
  await method.getByLabel("Dirhams per coin (MAD)").fill("11.00");
  await method.getByLabel("Minimum coins").fill("5");
  await method.getByLabel("Maximum coins").fill("500");
  await method.getByLabel("Enabled", { exact: true }).check();
  await method.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.getByRole("status")).toHaveText("Payment method saved");

  await connectFakePanel(admin, panel!);
  await createPanelProduct(admin, product, { activateWhenPaid: true });
}

test("a new customer pays by card on a phone and gets a ready server with no one on the staff acting", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const base = server!.url;
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const product = `Instant SA-MP ${tag}`;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, { baseURL: base });
  await configure(admin.page, product);

  // A new customer on a phone registers and confirms the address from the mail.
  const phone = await browser.newContext({ baseURL: base, viewport: PHONE });
  const page = await phone.newPage();
  const email = uniqueEmail("instant");
  await visit(page, "/register");
  await fillRegisterForm(page, { name: "Salma Instant", email, password: USER_PASSWORD });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, email, USER_PASSWORD);
  await page.goto(await linkSentTo(email));
  await waitForPage(page);
  await expect(page.getByRole("heading", { name: "Email address confirmed" })).toBeVisible();

  // Add coins: 10 by card, at 11.00 MAD a coin.
  await visit(page, "/dashboard?tab=billing");
  await page.getByRole("link", { name: "Add coins" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/top-up$/);
  await waitForPage(page);
  await page.getByRole("radio", { name: /Card \(YouCan Pay\)/ }).check();
  await page.getByRole("button", { name: "10", exact: true }).click();
  await expect(page.locator("[data-quote]")).toHaveText("You send MAD 110.00");
  await expect(page.getByTestId("pay-online-help")).toBeVisible();
  await keep(page, "1-top-up-card", page.getByRole("button", { name: "Continue to payment" }));
  await page.getByRole("button", { name: "Continue to payment" }).click();

  // YouCan Pay's page (the double's form), for 110.00 MAD.
  await expect(page).toHaveURL(new RegExp(`^${youcanpay!.origin}/sandbox/payment-form/`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("11000 MAD");
  await keep(page, "2-youcanpay-form");

  // From here to the server's address, no one on the staff acts, and it all fits in a minute.
  const marks: Record<string, number> = {};
  const paidAt = performance.now();
  let paymentPage = "";
  await test.step(
    "from the payment to a ready server",
    async () => {
      await page.getByRole("button", { name: "Pay" }).click();

      // Back on the payment's page, which follows it until the coins are in.
      await expect(page).toHaveURL(new RegExp(`^${base}/dashboard/top-up/payments/\\d+$`));
      await expect(page.locator("[data-payment-state]")).toHaveAttribute(
        "data-payment-state",
        "paid",
        { timeout: 15_000 },
      );
      await expect(page.getByText("Paid", { exact: true })).toBeVisible();
      await expect(page.locator("#payment-balance")).toHaveText(/^10\.00/);
      marks.credited = performance.now();
      paymentPage = new URL(page.url()).pathname;
      await waitForPage(page);
      await keep(page, "3-payment-paid", page.locator("[data-payment-state]"));
      await expectWithinMargins(page.getByRole("heading", { level: 1 }));

      // The order, paid from the coins: approved at once, and the services tab follows the server.
      await page.getByRole("link", { name: "Order a server" }).click();
      await expect(page).toHaveURL(/\/order$/);
      await waitForPage(page);
      await page.getByLabel("Service").selectOption({ label: `${product} — €3.00/month` });
      await page.getByLabel("Server name").fill("Salma RP");
      await page.getByRole("button", { name: "Place order" }).click();
      await expect(page).toHaveURL(/\/dashboard\/services$/);
      await expect(
        toast(page, "Order paid and approved: your server is being set up."),
      ).toBeVisible();
      marks.ordered = performance.now();

      // The server's address is the one the panel gave it (read from the fake panel once it made it).
      const made = () => panel!.servers.find((each) => each.name === "Salma RP");
      await expect.poll(made, { timeout: 30_000 }).toBeTruthy();
      const [allocation] = panel!.allocationsOf(made()!.id);
      const address = `${allocation!.alias ?? allocation!.ip}:${allocation!.port}`;
      await expect(page.getByText(address, { exact: true })).toBeVisible({ timeout: 30_000 });
      marks.ready = performance.now();
    },
    { timeout: PAY_TO_SERVER_MS },
  );
  const seconds = (at: number) => ((at - paidAt) / 1000).toFixed(1);
  test.info().annotations.push({
    type: "pay-to-ready-server",
    description:
      `${seconds(marks.ready!)} s from Pay to the address on the services tab ` +
      `(coins shown at ${seconds(marks.credited!)} s, order approved at ${seconds(marks.ordered!)} s)`,
  });
  await expect(page.getByRole("link", { name: "Open game panel" })).toBeVisible();
  await keep(page, "4-services-address", page.getByRole("link", { name: "Open game panel" }));

  // After the fact, read only: the ledger has one credit of 10 coins and the order's charge of 3, and
  // YouCan Pay took 110.00 MAD once.
  await visit(page, "/dashboard?tab=billing");
  const ledger = page.getByRole("table").filter({ hasText: "Balance after" });
  const entries = ledger.locator("tbody tr");
  await expect(entries).toHaveCount(2);
  await expect(entries.filter({ hasText: "+" })).toHaveCount(1);
  await expect(entries.filter({ hasText: "+10.00" })).toHaveCount(1);
  await expect(entries.filter({ hasText: "−3.00" })).toHaveCount(1);
  expect([...youcanpay!.transactions.values()].map((each) => each.amount)).toEqual([11000]);

  // Staff are told the order was approved automatically (their notifications, which the bell lists).
  await visit(admin.page, "/admin/notifications");
  await expect(
    admin.page
      .getByRole("table", { name: "Notifications" })
      .getByText(new RegExp(`approved automatically: ${product}`)),
  ).toBeVisible();

  // The payment's page in French and Arabic, as a customer reading either sees it.
  for (const lang of ["fr", "ar"] as const) {
    await visit(page, `${paymentPage}?lang=${lang}`);
    await expect(page.locator("html")).toHaveAttribute("dir", lang === "ar" ? "rtl" : "ltr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      paymentsText(lang, "paymentReturn.title"),
    );
    await expect(
      page.getByText(paymentsText(lang, "paymentReturn.states.paid"), { exact: true }),
    ).toBeVisible();
    await keep(page, `5-payment-paid-${lang}`, page.locator("[data-payment-state]"));
    await expectWithinMargins(page.getByRole("heading", { level: 1 }));
  }

  await admin.context.close();
  await phone.close();
});
