import { randomBytes } from "node:crypto";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  login,
  signedIn,
  signInOverHttp,
  uniqueEmail,
  visit,
  expect,
  test,
  noHorizontalScroll,
} from "./fixtures";

test("the admin sees a second session, signs it out, and that browser is sent to log in", async ({
  browser,
}) => {
  test.setTimeout(45_000);
  // The second browser says it is Firefox on Windows, with a mark of its own so this test finds its row
  // among the sessions other tests open for the same admin.
  const mark = `e2e-${randomBytes(4).toString("hex")}`;
  const otherContext = await browser.newContext({
    userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0 ${mark}`,
  });
  // Signed in over HTTP: the context's requests carry its user agent, which the session records.
  expect(await signInOverHttp(otherContext, ADMIN_EMAIL, ADMIN_PASSWORD)).toBe("/admin");
  const other = await otherContext.newPage();

  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin/security");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Security");
  const sessions = page.getByRole("table", { name: "Your sessions" });
  // This browser's session is marked; the other one shows as Firefox on Windows.
  const current = sessions.getByRole("row").filter({ hasText: "This session" });
  await expect(current).toHaveCount(1);
  await expect(current.getByRole("button", { name: /^Sign out/ })).toHaveCount(0);
  const row = sessions.getByRole("row").filter({ has: page.locator(`[title*="${mark}"]`) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Firefox 127 on Windows");
  await row.getByText("Full browser string").click();
  await expect(row.locator("code")).toContainText(mark);

  await row.getByRole("button", { name: "Sign out the session on Firefox 127 on Windows" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Sign out this session?" });
  await expect(confirm).toContainText("Firefox 127 on Windows");
  await confirm.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Session signed out.");
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(current).toHaveCount(1);

  // The other browser's next page asks it to log in; this one is still signed in.
  await other.goto("/admin/clients");
  await expect(other).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fclients$/);
  await visit(page, "/admin/security");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Security");

  // The sign-out is in the audit log, named in words.
  await visit(page, "/admin/logs?action=session.revoke");
  await expect(
    page.getByRole("table").getByText("Session signed out", { exact: true }).first(),
  ).toBeVisible();
  await otherContext.close();
  await context.close();
});

test("failed logins with a wrong password are listed, and the email's block from that address can be lifted", async ({
  browser,
}) => {
  // Seven logins through the form (each an Argon2id check), then the admin's page.
  test.setTimeout(60_000);
  const email = uniqueEmail("intruder");
  const guest = await browser.newContext();
  const visitor = await guest.newPage();
  for (let i = 0; i < 5; i++) {
    await login(visitor, email, `Wrong-password-${i}`);
    await expect(visitor.getByText("Invalid email or password", { exact: true })).toBeVisible();
  }
  await login(visitor, email, "Wrong-password-6");
  await expect(visitor.getByText(/^Too many attempts, try again in 15 minutes\.$/)).toBeVisible();

  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin/security");
  await expect(page.getByTestId("failed-last-24h")).toContainText(/failed logins? in the last 24/);

  // Filtered by the email, through the form: the five failures, newest first.
  const filter = page.getByRole("search", { name: "Filter failed logins" });
  await filter.getByLabel("Email tried").fill(email);
  await filter.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`email=${encodeURIComponent(email)}`));
  const failed = page.getByRole("table", { name: "Failed logins" });
  await expect(failed.getByRole("row").filter({ hasText: email })).toHaveCount(5);
  const times = await failed
    .locator("time")
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("datetime") ?? ""));
  expect(times).toEqual([...times].sort().reverse());

  // The email is blocked from this browser's address for the next 15 minutes (and only from there);
  // lifting it lets the next attempt be checked again.
  const throttles = page.getByRole("table", { name: "Throttled logins" });
  const blocked = throttles.getByRole("row").filter({ hasText: email });
  await expect(blocked).toHaveCount(1);
  await expect(blocked).toContainText("Blocked");
  await expect(blocked).toContainText("Email from one address");
  const escaped = email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await blocked
    .getByRole("button", { name: new RegExp(`^Lift the block on ${escaped} from `) })
    .click();
  const confirm = page.getByRole("alertdialog", { name: "Lift this block?" });
  await confirm.getByRole("button", { name: "Lift the block" }).click();
  await expect(page.getByRole("status")).toHaveText(
    new RegExp(`^Block lifted for ${escaped} from \\S+\\.$`),
  );
  await expect(blocked).toContainText("Lifted");
  await expect(blocked.getByRole("button", { name: /^Lift the block/ })).toHaveCount(0);

  await login(visitor, email, "Wrong-password-7");
  await expect(visitor.getByText("Invalid email or password", { exact: true })).toBeVisible();
  await guest.close();
  await context.close();
});

test("the security page fits a 375 px phone, in English and in Arabic", async ({ browser }) => {
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.setViewportSize({ width: 375, height: 800 });
  await visit(page, "/admin/security");
  await expect(page.getByRole("heading", { name: "Your sessions" })).toBeVisible();
  expect(await noHorizontalScroll(page)).toBe(true);
  await visit(page, "/admin/security?lang=ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { name: "جلساتك" })).toBeVisible();
  expect(await noHorizontalScroll(page)).toBe(true);
  await context.close();
});
