import { rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "@playwright/test";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { freshTotpCode, wrongTotpCode } from "../support/totp";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AUTH_SECRET,
  expect,
  noHorizontalScroll,
  registerCustomer,
  submitLogin,
  test,
  toast,
  visit,
  waitForHydration,
} from "./fixtures";
import { e2eFolder } from "../support/scratch";

// Requiring two-factor sign-in of the Owner role locks every owner without it out of the panel: on a
// shared server it would stop every admin test running beside this one. So this file starts a server of
// its own, on its own database (tests/support/own-server.ts), as an install that requires it of no role
// (FIRST_START_TWO_FACTOR_ROLES=none), and puts the setting back before it stops.

test.describe.configure({ mode: "serial" });

// The admin's own page in the admin shell, at its two-factor card.
const SETUP = "/admin/account#two-factor";
const folder = e2eFolder(`e2e-two-factor-${process.env.E2E_PORT ?? 3210}`);
const databaseFile = path.join(folder, "hostfront.db");
/** The security form with no role ticked and the caps as a new install has them. */
const NO_ROLE_REQUIRED = {
  intent: "security",
  billingCoinCap: "500",
  supportDailyCoinCap: "20",
  freshProofCoinThreshold: "100",
};

let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer({
    folder,
    env: { ADMIN_EMAIL, ADMIN_PASSWORD, AUTH_SECRET, FIRST_START_TWO_FACTOR_ROLES: "none" },
  });
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/**
 * Marks the admin's account as having two-factor sign-in, or not, in the server's database: what the
 * account tab's enable flow (built beside this) leaves. Every request reads it with the session.
 */
function setTwoFactor(email: string, on: boolean) {
  const db = new Database(databaseFile);
  try {
    db.prepare("update users set two_factor_enabled = ? where email = ?").run(on ? 1 : 0, email);
  } finally {
    db.close();
  }
}

const setAdminTwoFactor = (on: boolean) => setTwoFactor(ADMIN_EMAIL, on);

function readDatabase<T>(query: string, ...values: unknown[]): T | undefined {
  const db = new Database(databaseFile, { readonly: true });
  try {
    return db.prepare(query).get(...values) as T | undefined;
  } finally {
    db.close();
  }
}

async function signedInAdmin(browser: Browser) {
  const context = await browser.newContext({ baseURL: server!.url });
  const page = await context.newPage();
  await visit(page, "/login");
  await submitLogin(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/admin$/);
  return { context, page };
}

test("an owner without two-factor is asked to set it up, and sent there from every admin page once Owner is required", async ({
  browser,
}) => {
  const { context, page } = await signedInAdmin(browser);
  const settingOff = NO_ROLE_REQUIRED;
  try {
    // The dashboard asks, whatever the setting says.
    const prompt = page.getByTestId("two-factor-prompt");
    await expect(prompt).toContainText("Protect your admin account");
    await expect(prompt.getByRole("link", { name: "Set up two-factor sign-in" })).toHaveAttribute(
      "href",
      SETUP,
    );

    // An install that requires it of no role is told so, with a link to the setting.
    const rule = page.getByTestId("two-factor-rule");
    await expect(rule).toContainText("Require two-factor sign-in of Owner and Billing");
    await rule
      .getByRole("link", { name: "Choose the roles in the sign-in security settings" })
      .click();
    await expect(page).toHaveURL(/\/admin\/settings#security$/);

    // Owner ticked by an owner who has no second factor: saved, and they are sent to set it up.
    const form = page.getByRole("form", { name: "Sign-in security" });
    await expect(form.getByTestId("own-two-factor")).toContainText(
      "Two-factor sign-in is off for your account.",
    );
    for (const role of ["Owner", "Billing", "Support", "Technician"])
      await expect(form.getByLabel(role, { exact: true }), role).not.toBeChecked();
    await form.getByLabel("Owner", { exact: true }).check();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL((url) => `${url.pathname}${url.search}${url.hash}` === SETUP);
    await expect(page.getByText("Your staff role requires two-factor sign-in")).toBeVisible();

    // Any admin page, typed in the address bar, answers with the same redirect.
    for (const path of ["/admin/clients", "/admin", "/admin/settings"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(
        (url) => `${url.pathname}${url.search}${url.hash}` === SETUP,
      );
    }
    // An admin action too, on the server, whatever the client does.
    const post = await page.request.post("/admin/settings", { form: settingOff, maxRedirects: 0 });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe(SETUP);

    // With two-factor sign-in the admin passes, no longer asked; Billing is still not required.
    setAdminTwoFactor(true);
    await visit(page, "/admin/clients");
    await expect(page).toHaveURL(/\/admin\/clients$/);
    await visit(page, "/admin");
    await expect(page.getByTestId("two-factor-prompt")).toHaveCount(0);
    await expect(page.getByTestId("two-factor-rule")).toContainText("Billing members approve");

    // Cleanup through the page: the requirement off, then the admin back without a second factor.
    await visit(page, "/admin/settings");
    const again = page.getByRole("form", { name: "Sign-in security" });
    await expect(again.getByLabel("Owner", { exact: true })).toBeChecked();
    await again.getByLabel("Owner", { exact: true }).uncheck();
    await again.getByRole("button", { name: "Save" }).click();
    await expect(again.getByRole("status")).toHaveText("Settings saved");
    setAdminTwoFactor(false);
    await visit(page, "/admin/clients");
    await expect(page).toHaveURL(/\/admin\/clients$/);
  } finally {
    // Whatever failed above, the server's admin is let back in.
    setAdminTwoFactor(true);
    await page.request.post("/admin/settings", { form: settingOff });
    setAdminTwoFactor(false);
    await context.close();
  }
});

test("an admin resets a client's two-factor sign-in from the client page, and the client is mailed", async ({
  browser,
}) => {
  const visitor = await browser.newContext({ baseURL: server!.url });
  const customer = await registerCustomer(await visitor.newPage());
  await visitor.close();
  setTwoFactor(customer.email, true);
  const { id } = readDatabase<{ id: string }>(
    "select id from users where email = ?",
    customer.email,
  )!;

  const { context, page } = await signedInAdmin(browser);
  try {
    await visit(page, `/admin/clients/${id}`);
    const section = page.getByTestId("client-two-factor");
    await expect(section).toContainText("On");
    await section.getByRole("button", { name: "Reset two-factor sign-in" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText(customer.email);
    await dialog.getByRole("button", { name: "Reset" }).click();
    await expect(section.getByRole("status")).toHaveText(
      "Two-factor sign-in is off for this client; they were told by email.",
    );
    await expect(section).toContainText("Off");
    await expect(section.getByRole("button", { name: "Reset two-factor sign-in" })).toHaveCount(0);
    // The audit trail on the same page, and the mail in the outbox.
    await expect(page.locator("#audit")).toContainText("Two-factor sign-in reset");
    expect(
      readDatabase<{ kind: string }>(
        "select kind from mail_outbox where user_id = ? and kind = 'twoFactorReset'",
        id,
      ),
    ).toEqual({ kind: "twoFactorReset" });
  } finally {
    await context.close();
  }
});

/** Whether two-factor sign-in is required of the Owner role, saved through the settings page. */
async function saveRequirement(page: Page, on: boolean) {
  await visit(page, "/admin/settings");
  const form = page.getByRole("form", { name: "Sign-in security" });
  await form.getByLabel("Owner", { exact: true }).setChecked(on);
  await form.getByRole("button", { name: "Save" }).click();
}

/**
 * Puts the server's admin back as the other tests expect it, whatever a test left: no second factor
 * (its secret removed too), the requirement off. The database says "off" first, so a password alone
 * signs in; the session then passes the admin guard while the setting is turned off through the page.
 */
async function resetAdmin(browser: Browser) {
  const db = new Database(databaseFile);
  try {
    db.prepare(
      "delete from two_factors where user_id = (select id from users where email = ?)",
    ).run(ADMIN_EMAIL);
  } finally {
    db.close();
  }
  setAdminTwoFactor(false);
  const context = await browser.newContext({ baseURL: server!.url });
  try {
    const page = await context.newPage();
    await visit(page, "/login");
    await submitLogin(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    setAdminTwoFactor(true);
    await page.request.post("/admin/settings", { form: NO_ROLE_REQUIRED });
  } finally {
    setAdminTwoFactor(false);
    await context.close();
  }
}

test("an owner made to set up two-factor does it on their own page in the admin shell, on a phone, then signs in with a code", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { context, page } = await signedInAdmin(browser);
  let cleanedUp = false;
  try {
    await saveRequirement(page, true);
    await expect(page).toHaveURL((url) => `${url.pathname}${url.search}${url.hash}` === SETUP);
    await waitForHydration(page);
    // Inside the shell (its account menu, its heading), on a 390 px phone without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "My account" })).toBeVisible();
    expect(await noHorizontalScroll(page)).toBe(true);

    // The set-up, as a person does it: the password, the key read off the page, a code from it.
    const card = page.locator("#two-factor");
    await expect(card.getByTestId("two-factor-status")).toHaveText("Two-factor sign-in is off.");
    await card.getByLabel("Current password", { exact: true }).fill(ADMIN_PASSWORD);
    await card.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    const secret = (await card.getByTestId("two-factor-secret").innerText()).replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
    await card.getByLabel("Code from your app", { exact: true }).fill(await freshTotpCode(secret));
    await card.getByRole("button", { name: "Turn on", exact: true }).click();
    await expect(card.getByTestId("backup-codes").getByRole("listitem")).toHaveCount(10);
    await expect(card.getByTestId("two-factor-status")).toHaveText(
      "Two-factor sign-in is on. 10 backup codes left.",
    );
    await expect(card.getByRole("button", { name: "Copy the backup codes" })).toBeVisible();
    await expect(
      card.getByRole("link", { name: "Download the backup codes as a text file" }),
    ).toBeVisible();
    expect(await noHorizontalScroll(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The admin panel answers again, and no longer asks for a second factor.
    await visit(page, "/admin/clients");
    await expect(page).toHaveURL(/\/admin\/clients$/);
    await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
    await visit(page, "/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page.getByTestId("two-factor-prompt")).toHaveCount(0);

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);

    // The password leads to the code step, which offers no trusted device to an admin.
    await visit(page, "/login");
    await submitLogin(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page).toHaveURL(/\/login\?step=code/);
    await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
    await expect(page.getByLabel("Code from your app", { exact: true })).toBeVisible();
    await expect(page.getByLabel("Trust this device for 30 days")).toHaveCount(0);
    await expect(page.getByText("Trust this device", { exact: false })).toHaveCount(0);

    // A wrong code is refused, and the step stays.
    await page.getByLabel("Code from your app", { exact: true }).fill(wrongTotpCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert")).toContainText(
      "This code is not correct. Enter the newest code your app shows.",
    );
    await expect(page.getByLabel("Code from your app", { exact: true })).toBeVisible();
    await expect(page.getByLabel("Trust this device for 30 days")).toHaveCount(0);

    await page.getByLabel("Code from your app", { exact: true }).fill(await freshTotpCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(toast(page, "Admin login successful!")).toBeVisible();
    await expect(page.getByTestId("two-factor-prompt")).toHaveCount(0);

    // Cleanup through the pages: the requirement off, then two-factor off with password and code.
    await saveRequirement(page, false);
    await expect(
      page.getByRole("form", { name: "Sign-in security" }).getByRole("status"),
    ).toHaveText("Settings saved");
    // Found again from the shell's account menu.
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "My account" }).click();
    await expect(page).toHaveURL(/\/admin\/account$/);
    await waitForHydration(page);
    const turnOff = page.getByRole("button", { name: "Turn off two-factor sign-in" });
    const form = page.locator("#two-factor form").filter({ has: turnOff });
    await form.getByLabel("Current password", { exact: true }).fill(ADMIN_PASSWORD);
    await form
      .getByLabel("Code from your app or a backup code", { exact: true })
      .fill(await freshTotpCode(secret));
    await turnOff.click();
    await expect(page.locator("#two-factor").getByTestId("two-factor-status")).toHaveText(
      "Two-factor sign-in is off.",
    );
    cleanedUp = true;
  } finally {
    await context.close();
    if (!cleanedUp) await resetAdmin(browser);
  }
});
