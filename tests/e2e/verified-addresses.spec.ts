import { startOwnServer, type OwnServer } from "../support/own-server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AUTH_SECRET,
  expect,
  fillRegisterForm,
  submitLogin,
  test,
  uniqueEmail,
  USER_PASSWORD,
  waitForPage,
} from "./fixtures";
import { e2eFolder } from "../support/scratch";

// Verified addresses (docs/accounts.md) as a new customer meets them, on a server of its own that sends
// mail (SMTP_URL: an SMTP server in this test process): the shared e2e servers run without SMTP, where
// nothing is asked. Register, be held back from opening a ticket (how coins are asked for), receive the
// message, follow its link, and go on.

test.describe.configure({ mode: "serial" });

let smtp: TestSmtpServer | undefined;
let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpServer();
  server = await startOwnServer({
    folder: e2eFolder(`e2e-verify-${process.env.E2E_PORT ?? 3210}`),
    env: {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      AUTH_SECRET,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Hostfront <no-reply@hostfront.test>",
      WORKER_POLL_MS: "100",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

/** The verification link of the latest message sent to `email` (the worker sends it in the background). */
async function linkSentTo(email: string, after = 0): Promise<string> {
  for (const started = Date.now(); Date.now() - started < 30_000;) {
    const mail = smtp!.received
      .filter((each) => each.to.includes(email))
      .slice(after)
      .at(-1);
    const link = mail?.text?.match(/https?:\/\/\S+\/verify-email\?token=\S+/)?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no verification message reached ${email}`);
}

test("a new customer confirms the address from the message before opening a ticket", async ({
  page,
}) => {
  const base = server!.url;
  const email = uniqueEmail("verify");
  await page.goto(`${base}/register`);
  await waitForPage(page);
  await fillRegisterForm(page, { name: "New Customer", email, password: USER_PASSWORD });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, email, USER_PASSWORD);

  await page.goto(`${base}/dashboard`);
  await waitForPage(page);
  const notice = page.getByTestId("address-notice");
  await expect(notice.getByRole("heading", { name: "Confirm your email address" })).toBeVisible();
  await expect(notice).toContainText(email);

  // Asking for coins is a ticket: refused, with the way to confirm the address.
  await page.goto(`${base}/support/new?topic=coins`);
  await waitForPage(page);
  await page.getByRole("button", { name: "Open ticket" }).click();
  await expect(page.getByText("Please confirm your email address first")).toBeVisible();
  await page.getByRole("link", { name: "Confirm my email address" }).click();
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByText("Your email address is not confirmed yet")).toBeVisible();

  // "Send the message again" sends a second one; either link works.
  const first = await linkSentTo(email);
  await page.getByRole("button", { name: "Send the message again" }).click();
  await expect(page.getByText("We sent a new link to")).toBeVisible();
  const second = await linkSentTo(email, 1);
  expect(second).not.toBe(first);

  await page.goto(second);
  await waitForPage(page);
  await expect(page.getByRole("heading", { name: "Email address confirmed" })).toBeVisible();
  await page.goto(first);
  await waitForPage(page);
  await expect(page.getByRole("heading", { name: "Already confirmed" })).toBeVisible();

  await page.goto(`${base}/dashboard`);
  await waitForPage(page);
  await expect(page.getByTestId("address-notice")).toHaveCount(0);
  await page.goto(`${base}/support/new?topic=coins`);
  await waitForPage(page);
  await page.getByRole("button", { name: "Open ticket" }).click();
  await expect(page).toHaveURL(/\/support\/\d+\?opened=1$/);
});

test("a visitor who starts an order, registers and follows the mailed link lands back on the order", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const base = server!.url;
  const email = uniqueEmail("way-back");
  await page.goto(`${base}/order?product=1`);
  await waitForPage(page);
  await page.getByLabel("Server name").fill("Way back server");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByText("Please login to continue")).toBeVisible();
  await page.getByRole("alert").getByRole("link", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/register\?redirectTo=%2Forder%3Fproduct%3D1/);
  await waitForPage(page);
  await fillRegisterForm(page, { name: "Way Back", email, password: USER_PASSWORD });
  await page.getByRole("button", { name: "Create Account" }).click();

  // The toast says a link was mailed, and the address is already on the sign-in form.
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Forder%3Fproduct%3D1/);
  await waitForPage(page);
  await expect(
    page.locator("[data-toast]").getByText("We sent you an email: follow its link to verify", {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
  await page.getByLabel("Password", { exact: true }).fill(USER_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/order\?product=1&.*serverName=Way\+back\+server$/);

  // Ordering waits for the address; the mailed link verifies it and leads back to the order.
  await waitForPage(page);
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByText("Please confirm your email address first")).toBeVisible();
  await page.goto(await linkSentTo(email));
  await expect(page).toHaveURL(/\/order\?product=1&.*serverName=Way\+back\+server$/);
  await waitForPage(page);
  await expect(
    page.locator("[data-toast]").getByText("Your email address is verified.", { exact: true }),
  ).toBeVisible();
  await expect(page.getByLabel("Server name")).toHaveValue("Way back server");
});

test("a way back to another site is dropped: the link leads to signing in, nowhere else", async ({
  browser,
}) => {
  const base = server!.url;
  const email = uniqueEmail("evil-back");
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto(
    `${base}/register?redirectTo=${encodeURIComponent("https://evil.example/order")}`,
  );
  await waitForPage(page);
  await fillRegisterForm(page, { name: "Evil Back", email, password: USER_PASSWORD });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await visitor.close();

  // Followed in another browser: confirmed, and "Sign in" goes to the plain sign-in page.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const other = await phone.newPage();
  await other.goto(await linkSentTo(email));
  await waitForPage(other);
  await expect(other.getByRole("heading", { name: "Email address confirmed" })).toBeVisible();
  await expect(other.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  expect(new URL(other.url()).origin).toBe(base);
  await phone.close();
});

test("a link cut short says it does not work, and offers to sign in", async ({ page }) => {
  await page.goto(`${server!.url}/verify-email?token=abc.def.ghi`);
  await waitForPage(page);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute(
    "href",
    "/login?redirectTo=%2Fverify-email",
  );
});
