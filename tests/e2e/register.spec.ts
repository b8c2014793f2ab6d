import {
  expect,
  fillRegisterForm,
  test,
  toast,
  uniqueEmail,
  USER_PASSWORD,
  visit,
} from "./fixtures";

test.describe("registration", () => {
  test("shows the form, the password toggles, the coins notice and a link to login", async ({
    page,
  }) => {
    await visit(page, "/register");
    for (const label of ["Full name", "Email", "Country", "Password", "Confirm password"]) {
      await expect(page.getByLabel(label, { exact: true })).toBeVisible();
    }
    // The billing country starts on the shop's own (a setting: Morocco), whose VAT the invoices carry.
    await expect(page.getByLabel("Country", { exact: true })).toHaveValue("MA");

    for (const id of ["password", "confirmPassword"]) {
      const input = page.locator(`input#${id}`);
      const toggle = page.locator(`button[aria-controls="${id}"]`);
      await expect(input).toHaveAttribute("type", "password");
      await expect(toggle).toHaveAccessibleName("Show password");
      await toggle.click();
      await expect(input).toHaveAttribute("type", "text");
      await expect(toggle).toHaveAccessibleName("Hide password");
      await toggle.click();
      await expect(input).toHaveAttribute("type", "password");
      await expect(toggle).toHaveAccessibleName("Show password");
    }
    await expect(page.getByRole("button", { name: "Show password" })).toHaveCount(2);

    const main = page.getByRole("main");
    await expect(main.getByText("New accounts start with 0 coins")).toBeVisible();
    const community = main.getByRole("link", { name: "Join the community" });
    await expect(community).toBeVisible();
    await expect(community).toHaveAttribute("href", /^https?:\/\//);

    await main.getByRole("link", { name: "Login", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("refuses passwords that do not match", async ({ page }) => {
    await visit(page, "/register");
    await fillRegisterForm(page, {
      name: "Mismatch",
      email: uniqueEmail(),
      password: USER_PASSWORD,
      confirmPassword: `${USER_PASSWORD}-other`,
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Passwords do not match", { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);
  });

  test("refuses a password shorter than 6 characters", async ({ page }) => {
    await visit(page, "/register");
    await fillRegisterForm(page, { name: "Short", email: uniqueEmail(), password: "abc12" });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(
      page.getByText("Password must be at least 6 characters long", { exact: true }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);
  });

  test("refuses a common password", async ({ page }) => {
    await visit(page, "/register");
    await fillRegisterForm(page, { name: "Common", email: uniqueEmail(), password: "password1" });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText(/most common/)).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);
  });

  test("registers, then refuses the same email in another case", async ({ page }) => {
    const email = uniqueEmail();
    await visit(page, "/register");
    await fillRegisterForm(page, { name: "First Account", email, password: USER_PASSWORD });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, "Registration successful! Please login.")).toBeVisible();

    await visit(page, "/register");
    await fillRegisterForm(page, {
      name: "Second Account",
      email: email.toUpperCase(),
      password: USER_PASSWORD,
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(
      page.getByText("User with this email already exists", { exact: true }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);
  });
});
