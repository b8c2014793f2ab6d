import { expect, test, visit, expectAccessible } from "./fixtures";

test.use({ viewport: { width: 375, height: 740 } });

test("on a phone the navigation sits behind the menu button", async ({ page }) => {
  await visit(page, "/");
  const banner = page.getByRole("banner");
  // The desktop navigation and account links are hidden.
  await expect(banner.locator("nav").first()).toBeHidden();
  await expect(banner.getByRole("link", { name: "Login", exact: true })).toHaveCount(0);

  await banner.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("navigation", { name: "Main navigation" });
  await expect(menu).toBeVisible();
  for (const name of ["Home", "About", "Contact", "Login", "Register"]) {
    await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
  }
  await expect(banner.getByRole("button", { name: "Close menu" })).toBeVisible();
  await expectAccessible(page);
});
