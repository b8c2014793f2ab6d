import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  ENHANCE_SCRIPT,
  expect,
  signedIn,
  signInOverHttp,
  submitLogin,
  test,
  visit,
  waitForHydration,
  waitForPage,
} from "./fixtures";

// The privacy page (ADR 19): a visitor's public page without React, in every language, linked from the
// footer and the register form; and the deletion it promises, asked by a customer, completed by an admin.

test.describe("privacy page", () => {
  for (const { lang, title, heading, dir } of [
    { lang: "en", title: "Privacy policy", heading: "What we collect and why", dir: "ltr" },
    {
      lang: "fr",
      title: "Politique de confidentialité",
      heading: "Ce que nous collectons et pourquoi",
      dir: "ltr",
    },
    { lang: "ar", title: "سياسة الخصوصية", heading: "ما نجمعه ولماذا", dir: "rtl" },
  ]) {
    test(`a visitor reads it in ${lang}, without React`, async ({ page }) => {
      await visit(page, `/privacy?lang=${lang}`);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.locator("html")).toHaveAttribute("dir", dir);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(main.getByRole("heading", { level: 2, name: heading })).toBeVisible();
      await expect(main.getByRole("heading", { level: 2 })).toHaveCount(3);
      await expect(main.getByRole("listitem").first()).toBeVisible();
      // The contact address is filled in, no placeholder left.
      await expect(main).toContainText("support@hostfront.example");
      await expect(main).not.toContainText("{{");
      await expect(page).toHaveTitle(new RegExp(title));
      // Served as a public page: the enhance script, no React.
      await expect(page.locator(ENHANCE_SCRIPT)).toHaveCount(1);
      await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);
    });
  }

  test("is linked from the footer and from the register form", async ({ page }) => {
    await visit(page, "/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy policy" }).click();
    await expect(page).toHaveURL(/\/privacy$/);

    await visit(page, "/register");
    const legal = page.getByTestId("register-legal");
    await expect(legal).toHaveText(
      "By registering you accept the service terms and the privacy policy.",
    );
    await expect(legal.getByRole("link", { name: "service terms" })).toHaveAttribute(
      "href",
      "/service-terms",
    );
    await legal.getByRole("link", { name: "privacy policy" }).click();
    await expect(page).toHaveURL(/\/privacy$/);

    await visit(page, "/register?lang=ar");
    await expect(page.getByTestId("register-legal").getByRole("link")).toHaveText([
      "شروط الخدمة",
      "سياسة الخصوصية",
    ]);
  });
});

test.describe("account deletion", () => {
  test("a customer asks, an admin completes, the account can no longer sign in", async ({
    page,
    browser,
    customer,
  }) => {
    await signInOverHttp(page, customer.email, customer.password);
    await visit(page, "/dashboard?tab=account");
    await waitForHydration(page);
    const card = page.locator("#delete-account");
    await expect(card).toContainText("Your orders, services, tickets and coin history stay");

    // A wrong password: refused with the field's message, nothing asked.
    await card.getByLabel("Current password").fill("not-my-password");
    await card.getByRole("button", { name: "Request deletion" }).click();
    await expect(card.getByText("Your current password is not correct").first()).toBeVisible();
    await expect(page.getByTestId("deletion-pending")).toHaveCount(0);

    // The right one: pending, and it can be cancelled and asked again.
    await card.getByLabel("Current password").fill(customer.password);
    await card.getByRole("button", { name: "Request deletion" }).click();
    await expect(card.getByText("Your deletion request has been sent.")).toBeVisible();
    await expect(page.getByTestId("deletion-pending")).toBeVisible();
    await card.getByRole("button", { name: "Cancel the request" }).click();
    await expect(card.getByText("Your deletion request has been cancelled.")).toBeVisible();
    await card.getByLabel("Current password").fill(customer.password);
    await card.getByRole("button", { name: "Request deletion" }).click();
    await expect(page.getByTestId("deletion-pending")).toBeVisible();

    // The admin finds it under the filter, with its badge, and completes it after confirming.
    const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
    await visit(
      admin.page,
      `/admin/clients?deletion=requested&q=${encodeURIComponent(customer.email)}`,
    );
    await waitForHydration(admin.page);
    const row = admin.page.getByRole("row").filter({ hasText: customer.email });
    await expect(row.getByText("Deletion requested")).toBeVisible();
    await row.getByRole("button", { name: `Complete the deletion of ${customer.name}` }).click();
    const dialog = admin.page.getByRole("alertdialog");
    await expect(dialog).toContainText(customer.email);
    await dialog.getByRole("button", { name: "Complete deletion" }).click();
    await expect(admin.page.getByText("The account has been deleted.")).toBeVisible();
    await expect(admin.page.getByText(customer.email)).toHaveCount(0);
    await admin.context.close();

    // The customer's session is gone: the account page sends them to the login page, where signing in
    // again through the form is refused.
    await page.goto("/dashboard?tab=account");
    await expect(page).toHaveURL(/\/login/);
    await waitForPage(page);
    await submitLogin(page, customer.email, customer.password);
    await expect(page.getByText("Invalid email or password")).toBeVisible();
  });
});
