import { startOwnServer, type OwnServer } from "../support/own-server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";
import { e2eFolder } from "../support/scratch";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AUTH_SECRET,
  expect,
  expectAccessible,
  noHorizontalScroll,
  signedIn,
  test,
  uniqueEmail,
  visit,
  waitForHydration,
} from "./fixtures";

// Mail campaigns as people use them (docs/mail.md#campaigns): a visitor subscribes in the footer and
// confirms through the mailed link, the Owner writes a campaign, previews it, sends it to themselves,
// then sends it; the subscriber receives it with RFC 8058's headers, and a mail provider's one-click
// post unsubscribes them. The shared e2e servers have no SMTP_URL, so this spec starts a real SMTP
// server in the test process and a production server of its own (E2E_PORT + 6) sending to it.

test.describe.configure({ mode: "serial" });

const port = Number(process.env.E2E_PORT ?? 3210) + 6;
const baseURL = `http://localhost:${port}`;
const folder = e2eFolder(`e2e-campaigns-${port}`);

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
      WORKER_POLL_MS: "100",
      WORKER_BACKOFF_MS: "200",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

/** The first message to `email` whose subject holds `subject`, once the worker has sent it. */
async function mailTo(email: string, subject: string) {
  const find = () =>
    smtp.received.find((mail) => mail.to.includes(email) && mail.subject?.includes(subject));
  await expect.poll(() => Boolean(find()), { timeout: 15_000 }).toBe(true);
  return find()!;
}

/** A header as it came over the wire (mailparser folds the List-* ones into one structure). */
function headerLine(mail: Awaited<ReturnType<typeof mailTo>>, name: string) {
  return mail.parsed.headerLines
    .find((each) => each.key === name)
    ?.line.replace(/^[^:]+:\s*/, "")
    .replace(/\r?\n\s+/g, "");
}

test("a visitor subscribes and confirms; the Owner previews, tries and sends a campaign; one click unsubscribes", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("reader");

  // The footer's box: the same thanks as ever, and a confirmation link by mail.
  await visit(page, "/");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.locator("#newsletter-status")).toHaveText("Thanks for subscribing!");
  const confirmation = await mailTo(email, "Confirm your subscription");
  const link = /https?:\/\/\S+\/newsletter\/confirm\?token=[\w.%-]+/.exec(
    confirmation.text ?? "",
  )?.[0];
  expect(link, "the confirmation link").toBeTruthy();
  await visit(page, link!);
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    /Your subscription is confirmed/,
  );

  // The Owner, on a phone.
  const owner = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, {
    baseURL,
    viewport: { width: 360, height: 740 },
  });
  const admin = owner.page;
  await visit(admin, "/admin/newsletter");
  await expect(
    admin.getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) }),
  ).toContainText("Confirmed");

  await visit(admin, "/admin/email-marketing");
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Email Marketing");
  await waitForHydration(admin);
  expect(await noHorizontalScroll(admin)).toBe(true);
  await expectAccessible(admin);
  // English is required: refused, with what was typed kept.
  await admin.locator("#campaign-subject_fr").fill("Offres d'été");
  await admin.getByRole("button", { name: "Save the campaign" }).click();
  await expect(admin.getByText("Write a subject in English.")).toBeVisible();
  await expect(admin.locator("#campaign-subject_fr")).toHaveValue("Offres d'été");
  await admin.locator("#campaign-subject_en").fill("Summer offers");
  await admin.locator("#campaign-body_en").fill("Our servers are cheaper this summer.\n\nSee you!");
  await admin.getByLabel("Newsletter subscribers").check();
  await admin.getByRole("button", { name: "Save the campaign" }).click();
  await expect(admin).toHaveURL(/\/admin\/email-marketing\/\d+$/);
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Summer offers");

  // The preview draws the message as it will be mailed, with its unsubscribe link.
  const preview = admin.frameLocator('iframe[title="The campaign in English"]');
  await expect(preview.getByRole("heading", { name: "Summer offers" })).toBeVisible();
  await expect(preview.getByRole("link", { name: "Unsubscribe from these emails" })).toBeVisible();
  await waitForHydration(admin);
  expect(await noHorizontalScroll(admin)).toBe(true);
  await expectAccessible(admin);

  // Sending before trying it is refused; then to oneself, then to everyone.
  admin.once("dialog", (dialog) => void dialog.accept());
  await admin.getByRole("button", { name: "Send the campaign" }).click();
  await expect(admin.getByRole("status").first()).toContainText(
    "Send the campaign to yourself first",
  );
  await admin.getByRole("button", { name: "Send it to me" }).click();
  await expect(admin.getByRole("status").first()).toContainText("Sent to your address");
  await mailTo(ADMIN_EMAIL, "[Test] Summer offers");
  admin.once("dialog", (dialog) => void dialog.accept());
  await admin.getByRole("button", { name: "Send the campaign" }).click();
  await expect(admin.getByRole("status").first()).toContainText("on its way to 1 recipient");

  const campaign = await mailTo(email, "Summer offers");
  expect(headerLine(campaign, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
  const address = headerLine(campaign, "list-unsubscribe")!;
  expect(address).toMatch(new RegExp(`^<${baseURL}/unsubscribe\\?token=[\\w.%-]+>$`));
  expect(campaign.text).toContain(address.slice(1, -1));

  // A tampered link is refused and changes nothing; the provider's one-click post, without cookies.
  const url = address.slice(1, -1);
  const tampered = await request.post(url.replace(/token=(.)/, "token=x$1"), {
    form: { "List-Unsubscribe": "One-Click" },
    headers: { origin: "https://mail.example.net", "sec-fetch-site": "cross-site" },
  });
  expect(tampered.status()).toBe(400);
  const oneClick = await request.post(url, {
    form: { "List-Unsubscribe": "One-Click" },
    headers: { origin: "https://mail.example.net", "sec-fetch-site": "cross-site" },
  });
  expect(oneClick.status(), (await oneClick.text()).slice(0, 3000)).toBe(200);

  await expect
    .poll(
      async () => {
        await visit(admin, admin.url());
        return admin.getByRole("region", { name: "Report" }).textContent();
      },
      { timeout: 15_000 },
    )
    .toMatch(/Sent\s*1.*Unsubscribed\s*1/s);
  expect(await noHorizontalScroll(admin)).toBe(true);
  await expectAccessible(admin);

  // Opening the link only asks (a link scanner changes nothing); its page fits a phone too.
  await page.setViewportSize({ width: 360, height: 740 });
  await visit(page, new URL(url).pathname + new URL(url).search);
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toBeVisible();
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectAccessible(page);
  await owner.context.close();
});
