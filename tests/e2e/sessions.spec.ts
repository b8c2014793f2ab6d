import type { APIResponse, Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  signedIn,
  signInOverHttp,
  submitLogin,
  test,
  uniqueEmail,
  visit,
  waitForReactOn,
} from "./fixtures";

// Redirects, caching and sessions (docs/security.md): what a browser and the whole Express stack do.

test.describe("redirect after login", () => {
  test("a redirectTo with a tab in it (read as //evil.example) lands on the dashboard", async ({
    page,
    customer,
  }) => {
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).hostname !== "localhost") elsewhere.push(request.url());
    });
    await visit(page, "/login");
    // The form as an attacker's page would post it: the login page itself never offers such a target.
    await page.locator("form:has(input[name=password])").evaluate((form) => {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "redirectTo";
      input.value = "/\t/evil.example";
      form.append(input);
    });
    await submitLogin(page, customer.email, customer.password);
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/dashboard$/);
    expect(elsewhere).toEqual([]);
  });

  test("a same-site target keeps its query and hash", async ({ page, customer }) => {
    await visit(page, `/login?redirectTo=${encodeURIComponent("/dashboard?tab=account#top")}`);
    await submitLogin(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/dashboard\/account#top$/);
  });

  test("the POST answers with a same-origin Location, never the tab", async ({ request }) => {
    const address = uniqueEmail("redirect");
    const password = "Redirect-Probe-5512";
    await request.post("/register", {
      form: { name: "Probe", email: address, password, confirmPassword: password },
      maxRedirects: 0,
    });
    for (const redirectTo of ["/\t/evil.example", "/\\evil.example", "//evil.example"]) {
      const response = await request.post("/login", {
        form: { email: address, password, redirectTo },
        maxRedirects: 0,
      });
      expect(response.status(), redirectTo).toBe(302);
      expect(response.headers().location, redirectTo).toBe("/dashboard");
    }
  });
});

test.describe("Cache-Control on what depends on a session", () => {
  const PRIVATE = "private, no-store";
  const cacheControl = (response: APIResponse) => response.headers()["cache-control"];

  test("a visitor's public page stays as it was; signing in is private", async ({ request }) => {
    const about = await request.get("/about");
    expect(about.status()).toBe(200);
    expect(cacheControl(about)).toBeUndefined();
    const login = await request.post("/login", {
      form: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      maxRedirects: 0,
    });
    expect(login.status()).toBe(302);
    expect(login.headers()["set-cookie"]).toBeTruthy();
    expect(cacheControl(login)).toBe(PRIVATE);
  });

  test("a customer's pages, their data, public pages and errors", async ({ page, customer }) => {
    expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
    for (const path of [
      "/dashboard",
      "/dashboard.data",
      "/dashboard?tab=account",
      "/about",
      "/about.data",
      "/",
      "/no-such-page",
    ]) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBeLessThan(500);
      expect(cacheControl(response), path).toBe(PRIVATE);
    }
    const logout = await page.request.post("/logout", { maxRedirects: 0 });
    expect(logout.status()).toBe(302);
    expect(cacheControl(logout)).toBe(PRIVATE);
  });

  test("an admin's pages, their data and a CSV export", async ({ browser }) => {
    const { context, page } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
    try {
      for (const path of [
        "/admin",
        "/admin/clients",
        "/admin/clients.data",
        "/admin/newsletter.csv",
      ]) {
        const response = await page.request.get(path, { maxRedirects: 0 });
        expect(response.status(), path).toBe(200);
        expect(cacheControl(response), path).toBe(PRIVATE);
      }
    } finally {
      await context.close();
    }
  });
});

test("changing the login email asks for the password and signs the other browsers out", async ({
  browser,
  page,
  customer,
}) => {
  // The same customer in a second browser.
  const other = await signedIn(browser, customer.email, customer.password);
  try {
    await signInOverHttp(page, customer.email, customer.password);
    await visit(page, "/dashboard?tab=account");
    const email = page.getByLabel("Email", { exact: true });
    // The profile form's field: the account tab's deletion card asks for the password too.
    const password = profileForm(page).getByLabel("Current password", { exact: true });
    const save = page.getByRole("button", { name: "Save changes" });
    await waitForReactOn(save);
    const newEmail = uniqueEmail("moved");

    await email.fill(newEmail);
    await save.click();
    await expect(page.getByText("Enter your current password to change your email")).toHaveCount(2);
    await password.fill("not-my-password");
    await save.click();
    await expect(password).toHaveAccessibleDescription(/Your current password is not correct/);

    await password.fill(customer.password);
    await save.click();
    await expect(
      page.getByText("Your email has been changed. You have been signed out everywhere else."),
    ).toBeVisible();
    await expect(email).toHaveValue(newEmail);
    await expect(password).toHaveValue("");

    // This browser stays signed in; the other one is sent to the login page.
    await visit(page, "/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    await visit(other.page, "/dashboard");
    await expect(other.page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  } finally {
    await other.context.close();
  }
});

test("a stolen session guessing the current password is held back like the login form", async ({
  browser,
  page,
  customer,
}) => {
  await signInOverHttp(page, customer.email, customer.password);
  // The same session from an address that never signed in to the account (the e2e server trusts
  // X-Forwarded-For from loopback, as TRUST_PROXY's default does).
  const thief = await browser.newContext({
    storageState: await page.context().storageState(),
    extraHTTPHeaders: { "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
  });
  try {
    const stolen = await thief.newPage();
    await visit(stolen, "/account/password");
    const current = stolen.getByLabel("Current password", { exact: true });
    const submit = stolen.getByRole("button", { name: "Change password" });
    await waitForReactOn(submit);
    await stolen.getByLabel("New password", { exact: true }).fill("Another-Viaduct-1984");
    await stolen.getByLabel("Confirm new password", { exact: true }).fill("Another-Viaduct-1984");
    // LOGIN_PAIR_FAILURE_LIMIT wrong guesses, each a failed login of this email from this address.
    for (let guess = 0; guess < 5; guess++) {
      await current.fill(`guess-${guess}-Tangerine`);
      await submit.click();
      await expect(current).toHaveAccessibleDescription(/Your current password is not correct/);
      await expect(submit).toBeEnabled();
    }
    // Then even the right one is refused, with the login form's words.
    await current.fill(customer.password);
    await submit.click();
    await expect(current).toHaveAccessibleDescription(
      "Too many attempts, try again in 15 minutes.",
    );
    await expect(stolen).toHaveURL(/\/account\/password$/);

    // The email change on the dashboard is held back as well.
    await visit(stolen, "/dashboard?tab=account");
    const save = stolen.getByRole("button", { name: "Save changes" });
    await waitForReactOn(save);
    await stolen.getByLabel("Email", { exact: true }).fill(uniqueEmail("stolen"));
    await profileForm(stolen)
      .getByLabel("Current password", { exact: true })
      .fill(customer.password);
    await save.click();
    await expect(stolen.getByText("Too many attempts, try again in 15 minutes.")).toHaveCount(2);

    // The owner, at their own address, is not held back.
    await visit(page, "/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
  } finally {
    await thief.close();
  }
});

/** The account tab's profile form (the one saved with "Save changes"). */
function profileForm(page: Page) {
  return page.locator("form", { has: page.getByRole("button", { name: "Save changes" }) });
}
