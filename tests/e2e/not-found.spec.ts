import { expect, test, visit } from "./fixtures";

// Who may open which page, and the old addresses' redirects, are proven for every route, role and
// method by tests/integration/authorization-matrix.test.ts (with admin-guard.test.ts for every admin
// module): here only what a person sees of a page that does not exist.
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
