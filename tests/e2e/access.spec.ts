import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, login, test, visit } from "./fixtures";

test.describe("admin pages", () => {
  test("send anonymous visitors to login", async ({ page }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin$/);
  });

  test("send a signed-in customer home", async ({ page, customer }) => {
    await login(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/$/);
  });

  test("open for the admin", async ({ page }) => {
    await login(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("navigation", { name: "Admin Panel" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  });
});

test("an unknown path shows the 404 page with status 404", async ({ page }) => {
  const response = await visit(page, "/some/unknown/path");
  expect(response?.status()).toBe(404);
  const main = page.getByRole("main");
  await expect(main.getByText("404", { exact: true })).toBeVisible();
  await expect(main.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(
    main.getByText("The page you're looking for doesn't exist or has been moved.", { exact: true }),
  ).toBeVisible();
  await main.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test.describe("old addresses redirect", () => {
  test("/my-services goes to the dashboard, through login when anonymous", async ({
    page,
    customer,
  }) => {
    await page.goto("/my-services");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);

    await login(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/my-services");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("/terms goes to /service-terms", async ({ page }) => {
    await page.goto("/terms");
    await expect(page).toHaveURL(/\/service-terms$/);
  });

  // A deliberate departure from the spec's redirect home (ADR 19): tests/e2e/privacy.spec.ts.
  test("/privacy is the privacy page", async ({ page }) => {
    await page.goto("/privacy");
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy policy");
  });
});
