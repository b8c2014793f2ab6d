import { readFile } from "node:fs/promises";
import { freshTotpCode, previousTotpCode } from "../support/totp";
import {
  expect,
  logoutFromHeader,
  login,
  loginWithCode,
  test,
  toast,
  visit,
  waitForHydration,
  waitForPage,
} from "./fixtures";

test.describe("two-factor sign-in", () => {
  test("a customer turns it on, keeps the backup codes, and signs in with a code or a backup code", async ({
    page,
    customer,
  }) => {
    // Four sign-ins and a set-up, each a page load: more than the default 30 s on a loaded machine.
    test.setTimeout(60_000);
    await login(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await visit(page, "/dashboard?tab=account#two-factor");
    await waitForHydration(page);
    const card = page.locator("#two-factor");
    await expect(card.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
    await expect(card.getByTestId("two-factor-status")).toHaveText("Two-factor sign-in is off.");

    // A wrong password is refused with a message.
    await card.getByLabel("Current password", { exact: true }).fill("not-the-password");
    await card.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await expect(card.getByText("Your current password is not correct").first()).toBeVisible();

    await card.getByLabel("Current password", { exact: true }).fill(customer.password);
    await card.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await expect(
      card.getByRole("img", {
        name: "QR code that adds your Hostfront account to an authenticator app",
      }),
    ).toBeVisible();
    const secret = (await card.getByTestId("two-factor-secret").innerText()).replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/);

    // A wrong code leaves it off.
    await card.getByLabel("Code from your app", { exact: true }).fill("000000");
    await card.getByRole("button", { name: "Turn on", exact: true }).click();
    await expect(card.getByText("This code is not correct.").first()).toBeVisible();

    await card.getByLabel("Code from your app", { exact: true }).fill(await freshTotpCode(secret));
    await card.getByRole("button", { name: "Turn on", exact: true }).click();
    const codes = card.getByTestId("backup-codes").getByRole("listitem");
    await expect(codes).toHaveCount(10);
    await expect(card.getByText("They are shown only now.", { exact: false })).toBeVisible();
    const backupCodes = await codes.allInnerTexts();
    await expect(card.getByTestId("two-factor-status")).toHaveText(
      "Two-factor sign-in is on. 10 backup codes left.",
    );

    // Shown once: not after a reload.
    await visit(page, "/dashboard?tab=account");
    await expect(page.getByTestId("backup-codes")).toHaveCount(0);

    await logoutFromHeader(page);

    // The password alone no longer signs in: the code step, offering to trust the device.
    await login(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/login\?step=code/);
    await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
    await expect(page.getByLabel("Trust this device for 30 days")).toBeVisible();
    await page.getByLabel("Code from your app", { exact: true }).fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await waitForPage(page);
    await expect(page.getByText("This code is not correct.", { exact: false })).toBeVisible();
    // The step before's code (still accepted): the last sign-in below uses the current one, and a code
    // works once.
    await page
      .getByLabel("Code from your app", { exact: true })
      .fill(await previousTotpCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await waitForPage(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toast(page, "Login successful!")).toBeVisible();

    await logoutFromHeader(page);

    await loginWithCode(page, customer.email, customer.password, { backupCode: backupCodes[0]! });
    await expect(page).toHaveURL(/\/dashboard$/);
    await visit(page, "/dashboard?tab=account");
    await expect(page.getByTestId("two-factor-status")).toHaveText(
      "Two-factor sign-in is on. 9 backup codes left.",
    );

    // The fixture's way in, for other tests: password and a computed code.
    await logoutFromHeader(page);
    await loginWithCode(page, customer.email, customer.password, secret);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("the card answers in its own words, and its backup codes are copied or downloaded", async ({
    page,
    customer,
  }) => {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await login(page, customer.email, customer.password);
    await visit(page, "/dashboard?tab=account#two-factor");
    await waitForHydration(page);
    const card = page.locator("#two-factor");

    // No password: the card's own message, on its field and above it; nothing about the email.
    await card.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    const own = "Enter your current password to set up two-factor sign-in";
    await expect(card.getByRole("status").or(card.getByRole("alert")).first()).toHaveText(own);
    await expect(card.getByText(own)).toHaveCount(2);
    await expect(page.getByText("Enter your current password to change your email")).toHaveCount(0);

    await card.getByLabel("Current password", { exact: true }).fill(customer.password);
    await card.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    const secret = (await card.getByTestId("two-factor-secret").innerText()).replace(/\s/g, "");
    await card.getByLabel("Code from your app", { exact: true }).fill(await freshTotpCode(secret));
    await card.getByRole("button", { name: "Turn on", exact: true }).click();
    const items = card.getByTestId("backup-codes").getByRole("listitem");
    await expect(items).toHaveCount(10);
    const codes = await items.allInnerTexts();
    // No look-alikes: never 0/O, 1/I/l, nor L.
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);

    await card.getByRole("button", { name: "Copy the backup codes" }).click();
    await expect(toast(page, "Backup codes copied.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join("\n"));

    const downloading = page.waitForEvent("download");
    await card.getByRole("link", { name: "Download the backup codes as a text file" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("hostfront-backup-codes.txt");
    const text = await readFile((await download.path())!, "utf8");
    expect(text).toBe(
      `Hostfront: backup codes for two-factor sign-in. Each code signs you in once.\n\n${codes.join("\n")}\n`,
    );

    // A code typed in small letters without its dash signs in.
    await logoutFromHeader(page);
    await loginWithCode(page, customer.email, customer.password, {
      backupCode: codes[3]!.toLowerCase().replace("-", ""),
    });
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a code step that has expired sends back to the password", async ({ page, customer }) => {
    await login(page, customer.email, customer.password);
    await visit(page, "/dashboard?tab=account");
    await waitForHydration(page);
    const card = page.locator("#two-factor");
    await card.getByLabel("Current password", { exact: true }).fill(customer.password);
    await card.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    const secret = (await card.getByTestId("two-factor-secret").innerText()).replace(/\s/g, "");
    await card.getByLabel("Code from your app", { exact: true }).fill(await freshTotpCode(secret));
    await card.getByRole("button", { name: "Turn on", exact: true }).click();
    await expect(card.getByTestId("backup-codes").getByRole("listitem")).toHaveCount(10);
    await logoutFromHeader(page);

    await login(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/login\?step=code/);
    // The signed two_factor cookie is what carries the step; without it (10 minutes passed), the password.
    await page.context().clearCookies({ name: /two_factor/ });
    await visit(page, "/login?step=code");
    await expect(
      page.getByText("Your sign-in waited too long for its code. Enter your password again."),
    ).toBeVisible();
    await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
    await loginWithCode(page, customer.email, customer.password, secret);
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
