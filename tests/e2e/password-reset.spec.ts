import { startOwnServer, type OwnServer } from "../support/own-server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AUTH_SECRET,
  expect,
  registerCustomer,
  submitLogin,
  test,
  toast,
  visit,
  waitForPage,
} from "./fixtures";
import { e2eFolder } from "../support/scratch";

// Password reset by mail, as a person does it: the shared e2e servers have no SMTP_URL, so
// this spec starts a real SMTP server in the test process and a production server of its own (the
// build, on E2E_PORT + 5 and its own database) that sends to it through its worker. The link is taken
// out of the message the SMTP server received, and followed in the browser.

test.describe.configure({ mode: "serial" });

const port = Number(process.env.E2E_PORT ?? 3210) + 5;
const baseURL = `http://localhost:${port}`;
const folder = e2eFolder(`e2e-reset-${port}`);
const NEW_PASSWORD = "Marigold-Causeway-62";
const LINK = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/;

test.use({ baseURL });

let smtp: TestSmtpServer;
let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  smtp = await startSmtpServer();
  server = await startOwnServer({
    port,
    folder,
    env: {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      AUTH_SECRET,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Hostfront <no-reply@hostfront.test>",
      // The worker looks for due jobs often and retries soon: a message arrives within a second.
      WORKER_POLL_MS: "100",
      WORKER_BACKOFF_MS: "200",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

/** The first message to `email` whose subject holds `subject`, once the server's worker has sent it. */
async function mailTo(email: string, subject: string) {
  await expect
    .poll(
      () =>
        smtp.received.some((mail) => mail.to.includes(email) && mail.subject?.includes(subject)),
      { timeout: 15_000 },
    )
    .toBe(true);
  return smtp.received.find((mail) => mail.to.includes(email) && mail.subject?.includes(subject))!;
}

test("a customer resets a forgotten password with the link mailed to them", async ({ page }) => {
  const account = await registerCustomer(page);

  await page.getByRole("link", { name: "Forgot password?" }).click();
  await waitForPage(page);
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await waitForPage(page);
  await expect(page.getByRole("main").getByRole("status")).toContainText(
    "If an account exists for this address, we have sent it a link",
  );

  const mail = await mailTo(account.email, "Reset your password");
  expect(mail.html).toContain("/reset-password?token=");
  const link = LINK.exec(mail.text ?? "")?.[0];
  expect(link, "the link in the message's text").toBeTruthy();
  expect(link!.startsWith(`${baseURL}/reset-password?token=`)).toBe(true);

  await visit(page, link!);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirm the new password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Set the new password" }).click();
  await waitForPage(page);
  await expect(page).toHaveURL(/\/login$/);
  await expect(toast(page, "Your password has been changed.")).toBeVisible();
  await mailTo(account.email, "was changed");

  // The old password no longer opens the account; the new one does.
  await submitLogin(page, account.email, account.password);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await submitLogin(page, account.email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/);

  // The link worked once.
  await page.context().clearCookies();
  await visit(page, link!);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute(
    "href",
    "/forgot-password",
  );
});

test("an admin is told of a sign-in to their account", async ({ page }) => {
  await visit(page, "/login");
  await submitLogin(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/admin/);
  const mail = await mailTo(ADMIN_EMAIL, "New sign-in to your administrator account");
  expect(mail.text).toContain("Browser: Chrome");
  expect(mail.text).toContain(`${baseURL}/admin/security`);
});
