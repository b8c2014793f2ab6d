import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  header,
  login,
  submitLogin,
  test,
  toast,
  uniqueEmail,
  USER_PASSWORD,
  visit,
  watchButton,
  expectAccessible,
} from "./fixtures";

test.describe("login", () => {
  test("refuses a wrong password", async ({ page, customer }) => {
    await login(page, customer.email, `${customer.password}-wrong`);
    await expect(page.getByText("Invalid email or password", { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("refuses an unknown email with the same message", async ({ page }) => {
    await login(page, uniqueEmail("nobody"), USER_PASSWORD);
    await expect(page.getByText("Invalid email or password", { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("signs a customer in to the dashboard", async ({ page, customer }) => {
    await login(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toast(page, "Login successful!")).toBeVisible();

    const banner = header(page);
    await expect(banner.getByRole("link", { name: "Dashboard", exact: true })).toBeVisible();
    await expect(banner.getByRole("button", { name: "Logout", exact: true })).toBeVisible();
    await expect(banner.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);

    await banner.getByRole("button", { name: /^Coin balance:/ }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("community");
    await expect(dialog).toContainText("support ticket");
    await expect(dialog).toContainText("team");
    await expectAccessible(page);
  });

  test("signs the admin in to the admin panel", async ({ page }) => {
    await login(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(toast(page, "Admin login successful!")).toBeVisible();

    await visit(page, "/");
    await expect(header(page).getByRole("link", { name: "Admin", exact: true })).toBeVisible();
  });

  test("says 'Signing in...' while the form is submitted", async ({ page, customer }) => {
    await visit(page, "/login");
    // Hold the form's post (a page load: /login is served without React) back a little, so the pending
    // state shows for a while before the next page replaces it.
    await page.route("**/login", async (route) => {
      if (route.request().method() === "POST")
        await new Promise((resolve) => setTimeout(resolve, 750));
      await route.continue();
    });
    const states = await watchButton(page.getByRole("button", { name: "Sign In" }));
    await submitLogin(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(states).toContainEqual({ text: "Signing in...", disabled: true, busy: "true" });
  });

  test("links to the forgot-password page", async ({ page }) => {
    await visit(page, "/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(
      page.getByRole("heading", { name: "Forgot your password?", level: 1 }),
    ).toBeVisible();
  });
});
