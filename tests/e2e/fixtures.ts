import { randomBytes } from "node:crypto";
import { expect, test as base, type Browser, type Locator, type Page } from "@playwright/test";

/** The e2e server's first admin (playwright.config.ts passes these to it). */
export const ADMIN_EMAIL = "admin@hostfront.test";
export const ADMIN_PASSWORD = "E2e-Admin!Kestrel-4821-Harbor";
/** 64 hex characters, for the e2e server only. */
export const AUTH_SECRET = "5f3c9a1e7b2d4068a9e1c3b5d7f90246813579bdf0e2c4a6b8d0f1e3a5c7e9b1";

/** A password that is long and not on the common-password list. */
export const USER_PASSWORD = "Tangerine-Viaduct-73";

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Date.now()}-${randomBytes(4).toString("hex")}@example.com`;
}

export interface Customer {
  name: string;
  email: string;
  password: string;
}

/**
 * A toast with exactly this text: sonner's on a hydrated page, the server's (static-toaster.tsx) on a page
 * served without React.
 */
export function toast(page: Page, text: string) {
  return page.locator("[data-sonner-toast], [data-toast]").getByText(text, { exact: true });
}

/**
 * Waits until React has started hydrating the document (hydrateRoot marks its container). From then on a
 * click reaches React's handlers: an event on a part not hydrated yet makes React hydrate it first.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() =>
    Object.keys(document).some((key) => key.startsWith("__reactContainer$")),
  );
}

/**
 * Waits until React has hydrated this element: a click on a hydrated page's button before then is lost,
 * as it would be for a person.
 */
export async function waitForReactOn(locator: Locator) {
  await expect
    .poll(() =>
      locator.evaluate((element) =>
        Object.keys(element).some((key) => key.startsWith("__reactProps$")),
      ),
    )
    .toBe(true);
}

/**
 * Records every state this button goes through from now on (its text, disabled, aria-busy). On a page
 * served without React a form's post is a page load, and while it is under way the test cannot look at
 * the page it leaves; the page reports what its button showed instead.
 */
export async function watchButton(button: Locator) {
  const states: { text: string; disabled: boolean; busy: string | null }[] = [];
  const name = `reportButton${randomBytes(4).toString("hex")}`;
  await button.page().exposeFunction(name, (state: (typeof states)[number]) => states.push(state));
  await button.evaluate((element, report) => {
    const button = element as HTMLButtonElement;
    new MutationObserver(() =>
      (window as unknown as Record<string, (state: unknown) => void>)[report]!({
        text: button.textContent ?? "",
        disabled: button.disabled,
        busy: button.getAttribute("aria-busy"),
      }),
    ).observe(button, { attributes: true, childList: true, characterData: true, subtree: true });
  }, name);
  return states;
}

/** The enhance script of a page served without React (app/entry.enhance.ts), written into the page. */
export const ENHANCE_SCRIPT = "script[data-enhance]";

/**
 * Waits until the page's own script has started: React's hydration, or on a page served without React
 * (an anonymous visitor's public page) the enhance script, which marks <html data-enhanced> when it has
 * set everything up. Each page waits for the one it was served with.
 */
export async function waitForPage(page: Page) {
  await page.waitForFunction(
    (enhance) =>
      document.querySelector(enhance)
        ? document.documentElement.hasAttribute("data-enhanced")
        : Object.keys(document).some((key) => key.startsWith("__reactContainer$")),
    ENHANCE_SCRIPT,
  );
}

/** Goes to a page of the app and waits for its script (waitForPage). */
export async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForPage(page);
  return response;
}

export async function fillRegisterForm(
  page: Page,
  values: { name: string; email: string; password: string; confirmPassword?: string },
) {
  await page.getByLabel("Full name", { exact: true }).fill(values.name);
  await page.getByLabel("Email", { exact: true }).fill(values.email);
  await page.getByLabel("Password", { exact: true }).fill(values.password);
  await page
    .getByLabel("Confirm password", { exact: true })
    .fill(values.confirmPassword ?? values.password);
}

/** Registers a new customer through the form and waits for the login page. */
export async function registerCustomer(
  page: Page,
  customer?: Partial<Customer>,
): Promise<Customer> {
  const account: Customer = {
    name: customer?.name ?? "Test Customer",
    email: customer?.email ?? uniqueEmail(),
    password: customer?.password ?? USER_PASSWORD,
  };
  await visit(page, "/register");
  await fillRegisterForm(page, account);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  return account;
}

/**
 * Fills the login form (the current page must be /login) and submits it. The login page is served
 * without React, so the post loads the next page: wait until that page's script runs, as visit() does.
 */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await waitForPage(page);
}

export async function login(page: Page, email: string, password: string) {
  await visit(page, "/login");
  await submitLogin(page, email, password);
}

/** The desktop header's account area is the banner landmark (the mobile menu is closed). */
export function header(page: Page) {
  return page.getByRole("banner");
}

interface Fixtures {
  /** A customer registered for this test through the form; the page is left on /login, signed out. */
  customer: Customer;
}

export const test = base.extend<Fixtures>({
  customer: async ({ page }, provide) => {
    await provide(await registerCustomer(page));
  },
});

export { expect };

/** A new browser context signed in as this account, for tests where two people act (admin and customer). */
export async function signedIn(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await visit(page, "/login");
  await submitLogin(page, email, password);
  await expect(page).not.toHaveURL(/\/login/);
  return { context, page };
}

/** The second e2e server, started with the entry gate on (playwright.config.ts). */
export const GATE_BASE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 1}`;

/** The third e2e server, where admin-settings.spec.ts flips site-wide switches (playwright.config.ts). */
export const SETTINGS_BASE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 2}`;
