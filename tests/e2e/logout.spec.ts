import {
  expect,
  logoutFromHeader,
  signInOverHttp,
  submitLogin,
  test,
  toast,
  visit,
} from "./fixtures";

test("logging out goes home, and the dashboard then asks to log in and comes back", async ({
  page,
  customer,
}) => {
  // Signed in over HTTP: logging out, and signing in again on the way back, are the subject.
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  await visit(page, "/dashboard");

  await logoutFromHeader(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page, "Logged out successfully")).toBeVisible();

  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  await submitLogin(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: `Welcome, ${customer.name}` })).toBeVisible();
});
