import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  expect,
  test as base,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Route,
} from "@playwright/test";
import { freshTotpCode } from "../support/totp";
import { axeFixture, checkLive } from "./axe";
import { pageReady } from "./page-ready";

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
 * A toast with exactly this text: the toaster's on a hydrated page (toaster.tsx), the server's
 * (static-toaster.tsx) on a page served without React; both are a toast-item.tsx ToastItem.
 */
export function toast(page: Page, text: string) {
  return page.locator("[data-toast]").getByText(text, { exact: true });
}

/**
 * Waits until React has hydrated the document: entry.client marks <html data-hydrated> once the hydrated
 * page is committed and what was typed before it is handed back. (hydrateRoot marks its container at once,
 * while hydrating goes on in the background: a field filled then could be overwritten by it.)
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
  await checkLive(page);
}

/**
 * Waits until React has hydrated this element: a click on a hydrated page's button before then is lost,
 * as it would be for a person.
 */
export async function waitForReactOn(locator: Locator) {
  await expect
    .poll(() =>
      locator.evaluate((element) =>
        // React notes its props on each element it has hydrated.
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

/**
 * Holds every script file the page asks for until `release()`: the page's HTML is there, its scripts
 * are not, as on a slow phone in the moments after a page arrives.
 */
export async function holdScripts(page: Page) {
  const held: Route[] = [];
  let holding = true;
  await page.route(/\.js(\?.*)?$/, async (route) => {
    if (holding) held.push(route);
    else await route.continue();
  });
  return {
    count: () => held.length,
    release: async () => {
      holding = false;
      await Promise.all(held.splice(0).map((route) => route.continue().catch(() => undefined)));
    },
  };
}

/**
 * Waits until the page's own script has done its work (pageReady: React's hydration, or the enhance
 * script of a page served without React), then has axe check the page as it stands (axe.ts).
 */
export async function waitForPage(page: Page) {
  await pageReady(page);
  await checkLive(page);
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

/** A new customer's name, email and password: what is given, a unique email and USER_PASSWORD else. */
function newAccount(customer?: Partial<Customer>): Customer {
  return {
    name: customer?.name ?? "Test Customer",
    email: customer?.email ?? uniqueEmail(),
    password: customer?.password ?? USER_PASSWORD,
  };
}

/** Registers a new customer through the form and waits for the login page. */
export async function registerCustomer(
  page: Page,
  customer?: Partial<Customer>,
): Promise<Customer> {
  const account = newAccount(customer);
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

/**
 * Signs in an account with two-factor sign-in on: the password, then on the code step the
 * code an authenticator app would show for `secret` (the setup key the account tab showed, or its
 * `otpauth://` URI), or `{ backupCode }` through the page's "Use a backup code instead" link.
 */
export async function loginWithCode(
  page: Page,
  email: string,
  password: string,
  second: string | { backupCode: string },
) {
  await login(page, email, password);
  await expect(page).toHaveURL(/\/login\?step=code/);
  if (typeof second === "string") {
    await page.getByLabel("Code from your app", { exact: true }).fill(await freshTotpCode(second));
  } else {
    await page.getByRole("link", { name: "Use a backup code instead" }).click();
    await waitForPage(page);
    await page.getByLabel("Backup code", { exact: true }).fill(second.backupCode);
  }
  await page.getByRole("button", { name: "Verify" }).click();
  await waitForPage(page);
}

/** The desktop header's account area is the banner landmark (the mobile menu is closed). */
/** A document page's PDF, downloaded by its button: its file name and its bytes. */
export async function downloadPdf(page: Page, button: string) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: button }).click(),
  ]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

export function header(page: Page) {
  return page.getByRole("banner");
}

/**
 * Logs out with the site header's button and waits until the header is a visitor's. The form posts
 * inside the app once it has hydrated, so the document stays and waitForPage would not wait for it:
 * a page opened before the answer could still carry the session.
 */
export async function logoutFromHeader(page: Page) {
  await header(page).getByRole("button", { name: "Logout", exact: true }).click();
  await expect(header(page).getByRole("link", { name: "Login", exact: true })).toBeVisible();
}

export { AXE_TAGS, expectAccessible } from "./axe";
export { ENHANCE_SCRIPT } from "./page-ready";

interface Fixtures {
  /** A customer registered for this test (over HTTP, registerOverHttp), not signed in. */
  customer: Customer;
  /** Automatic: every page the test loads, in any context, is checked with axe (axe.ts). */
  axe: void;
}

export const test = base.extend<Fixtures>({
  customer: async ({ context }, provide) => {
    await provide(await registerOverHttp(context));
  },
  axe: [axeFixture, { auto: true }],
});

/**
 * Every time limit of the browser tests is stretched by this: the config's default and expect limits,
 * and each `test.setTimeout(ms)` of a spec (below). The limits were set on a machine about twice as fast
 * as the one CI ran on on 2026-11-25, where `npm test`'s browser suite took 40 minutes instead of 12 and
 * three tests passed their 30 s in the middle of a sign-in. A limit catches a hang, it is not a speed
 * budget (those are the benchmarks'), so the same tests with the same assertions get the room to run.
 */
export const TIMEOUT_SCALE = 2;

/** A time limit in milliseconds, stretched for the machine (TIMEOUT_SCALE). */
export function scaled(ms: number): number {
  return ms * TIMEOUT_SCALE;
}

// A spec's test.setTimeout(ms) is written for the faster machine; every spec imports `test` from here.
const setTimeoutAsWritten = test.setTimeout.bind(test);
test.setTimeout = (ms: number) => setTimeoutAsWritten(scaled(ms));

export { expect };

/** The toast a form's answer flashes for the next page (app/http/toast.server.ts). */
const TOAST_COOKIE = "hostfront_toast";

/** A page or a browser context: what holds the cookies a request over HTTP sends and keeps. */
type CookieJar = Page | BrowserContext;
const contextOf = (jar: CookieJar): BrowserContext => ("context" in jar ? jar.context() : jar);

/**
 * Posts a public form as the browser would (its fields, from this context, with its cookies) and
 * expects the redirect that says it was taken, to `to`. The toast the answer flashes for the next page
 * is dropped: that page is never loaded, and a test's next page would show it.
 */
async function postForm(jar: CookieJar, path: string, form: Record<string, string>, to: RegExp) {
  const context = contextOf(jar);
  const response = await context.request.post(path, { form, maxRedirects: 0 });
  const location = response.headers()["location"] ?? "";
  if (response.status() !== 302 || !to.test(location))
    throw new Error(
      `POST ${path} answered ${response.status()} ${location}, not a redirect to ${to}`,
    );
  await context.clearCookies({ name: TOAST_COOKIE });
  return location;
}

/**
 * Registers a new customer over HTTP (the register form's post, no page loaded): for tests that need
 * a customer, not the form. register.spec.ts tests the form.
 */
export async function registerOverHttp(
  jar: CookieJar,
  customer?: Partial<Customer>,
): Promise<Customer> {
  const account = newAccount(customer);
  await postForm(
    jar,
    "/register",
    { ...account, confirmPassword: account.password },
    /^\/login(\?|$)/,
  );
  return account;
}

/**
 * Signs in over HTTP: the login form's post sent from this page's or context's cookie jar, which keeps
 * the new session, without loading the login page or the page it leads to. Every test gets a session
 * of its own this way; the specs about signing in, two-factor, sessions and password reset use the form
 * (login(), submitLogin()). Returns where the sign-in leads (/dashboard, /admin...).
 */
export async function signInOverHttp(jar: CookieJar, email: string, password: string) {
  return postForm(jar, "/login", { email, password }, /^\/(?!login)/);
}

/**
 * A new browser context signed in as this account (over HTTP), with a blank page: for tests where two
 * people act (admin and customer), or that need a screen size of their own (`options`).
 */
export async function signedIn(
  browser: Browser,
  email: string,
  password: string,
  options?: Parameters<Browser["newContext"]>[0],
) {
  const context = await browser.newContext(options);
  await signInOverHttp(context, email, password);
  const page = await context.newPage();
  return { context, page };
}

/**
 * A new customer, registered and signed in over HTTP in a new browser context of its own (`options`:
 * its screen size, its language...).
 */
export async function newCustomerSignedIn(
  browser: Browser,
  customer?: Partial<Customer>,
  options?: Parameters<Browser["newContext"]>[0],
) {
  const context = await browser.newContext(options);
  const account = await registerOverHttp(context, customer);
  await signInOverHttp(context, account.email, account.password);
  const page = await context.newPage();
  return { context, page, customer: account };
}

/** The second e2e server, started with the entry gate on (playwright.config.ts). */
export const GATE_BASE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 1}`;

/** The third e2e server, where admin-settings.spec.ts flips site-wide switches (playwright.config.ts). */
export const SETTINGS_BASE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 2}`;

/** The fourth e2e server, on PostgreSQL (playwright.config.ts, postgres-server.ts). */
export const POSTGRES_BASE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 3}`;

/**
 * The fifth e2e server, where payment methods are switched on (playwright.config.ts): the other servers
 * keep none open, so coins are bought off-site there.
 */
export const PAYMENTS_BASE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 4}`;

/**
 * The moment a response was written, by the server's clock (its Date header, to the second): what a test
 * compares the server's days and months with, instead of reading its own clock, which may have passed
 * midnight since.
 */
export function serverMoment(response: { headers(): Record<string, string> } | null): Date {
  const date = response?.headers()["date"];
  if (!date) throw new Error("the response has no Date header");
  return new Date(date);
}

/** Whether the page fits its viewport's width (nothing scrolls sideways), as a phone shows it. */
export async function noHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  );
}
