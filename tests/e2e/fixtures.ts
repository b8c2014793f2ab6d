import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import {
  expect,
  test as base,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Route,
  type TestInfo,
} from "@playwright/test";
import { freshTotpCode } from "../support/totp";

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
}

/**
 * Waits until React has hydrated this element: a click on a hydrated page's button before then is lost,
 * as it would be for a person.
 */
export async function waitForReactOn(locator: Locator) {
  await expect
    .poll(() =>
      locator.evaluate(
        (element) =>
          // In the browser Preact hydrates (ADR 42): it marks no element, and hydrates the whole page at
          // once, so an element of a page whose <html data-hydrated> is set, with no React root, is hydrated.
          Object.keys(element).some((key) => key.startsWith("__reactProps$")) ||
          (!Object.keys(document).some((key) => key.startsWith("__reactContainer$")) &&
            document.documentElement.hasAttribute("data-hydrated") &&
            element.isConnected),
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

/** The enhance script of a page served without React (app/entry.enhance.ts), written into the page. */
export const ENHANCE_SCRIPT = "script[data-enhance]";

/**
 * Waits until the page's own script has done its work: React's hydration (waitForHydration), or on a page
 * served without React
 * (an anonymous visitor's public page) the enhance script, which marks <html data-enhanced> when it has
 * set everything up. Each page waits for the one it was served with.
 */
export async function waitForPage(page: Page) {
  await page.waitForFunction(
    // Between two documents (a form post's navigation) there may be no <html> yet: not ready, look again.
    (enhance) =>
      document.querySelector(enhance)
        ? (document.documentElement?.hasAttribute("data-enhanced") ?? false)
        : (document.documentElement?.hasAttribute("data-hydrated") ?? false),
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

/**
 * Signs in an account with two-factor sign-in on (issue 25): the password, then on the code step the
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

/** The WCAG 2.1 A and AA rules axe checks every page against. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Elements axe leaves out, each with the reason. Never a whole rule: a page that breaks one is fixed.
 * (Empty: nothing in the app needs it.)
 */
const AXE_EXCLUDE: { selector: string; reason: string }[] = [];

/** axe over the page as it is now; one line a failing element: rule, impact, help, where. */
async function axeViolations(page: Page, include?: string): Promise<string[]> {
  // Legacy mode runs in the page itself: the default opens a blank page per analysis to merge frames'
  // results, and the app has no frames.
  const builder = new AxeBuilder({ page })
    // Only what fails: collecting every passing element's details doubles the time on a long page.
    // (Before withTags: options() replaces the options withTags adds to.)
    .options({ resultTypes: ["violations"] })
    .withTags(AXE_TAGS)
    .setLegacyMode(true);
  if (include) builder.include(include);
  for (const { selector } of AXE_EXCLUDE) builder.exclude(selector);
  const { violations } = await builder.analyze();
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? "?"}): ${violation.help} at ${node.target.join(" ")}`,
    ),
  );
}

/**
 * Checks the page as it is now with axe (AXE_TAGS): for a state no navigation reaches, such as an open
 * dialog or menu. Every page a test loads is checked anyway (the `axe` fixture below); `include` narrows
 * the check to one part (a selector).
 */
export async function expectAccessible(page: Page, include?: string) {
  // A dialog fades in: its colours are checked once it has (animations that end, not spinners).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const where = `${new URL(page.url()).pathname}${include ? ` (${include})` : ""}`;
  expect(await axeViolations(page, include), `axe violations on ${where}`).toEqual([]);
}

/**
 * Claims a page (its pageKey) for this test to check: false when a test of this run, in any worker, has
 * claimed it already. The claims are empty files in the run's output folder, which Playwright empties
 * when a run starts; creating one with "wx" fails if it exists, so two workers never both check a page,
 * and a worker started again after a failure does not check again what its predecessor did.
 */
function claimPage(key: string, testInfo: TestInfo, peek = false) {
  const folder = join(testInfo.project.outputDir, ".axe-checked");
  const file = join(folder, createHash("sha1").update(key).digest("hex"));
  if (peek) return !existsSync(file);
  mkdirSync(folder, { recursive: true });
  try {
    writeFileSync(file, key, { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

/** A path's ids (digits, hex) stand for any: /support/41 and /support/42 are one page. */
function pathPattern(url: URL) {
  return url.pathname
    .split("/")
    .map((part) => (/\d/.test(part) && /^[\w-]+$/.test(part) ? ":id" : part))
    .join("/");
}

/**
 * The query parameters that open another part of a page: a dashboard tab, an opened message, an editor,
 * an order's details. The others (a search, filters, the page of a list, redirectTo, lang) show the same
 * markup with other rows.
 */
const STATE_PARAMS = ["tab", "open", "edit", "id"];

/**
 * What makes two loads of a page look different: server, path pattern, the STATE_PARAMS it has (not
 * their values), the language, who is signed in, phone or wide screen, JavaScript on or off.
 */
function pageKey(url: URL, lang: string, role: string, phone: boolean, javaScript: boolean) {
  const names = STATE_PARAMS.filter((name) => url.searchParams.has(name));
  return [
    url.origin,
    pathPattern(url) + (names.length ? `?${names.join("&")}` : ""),
    lang,
    role,
    phone ? "phone" : "wide",
    javaScript ? "js" : "no-js",
  ].join(" ");
}

interface WatchedContext {
  /** The URLs its pages' main frames navigated to (whatever started it: goto, a link, a form post). */
  urls: Set<string>;
  javaScript: boolean;
  phone: boolean;
  checking: boolean;
  /** Closed by the test: its pages were checked as it closed, and it can be read no more. */
  closed?: boolean;
}

/**
 * Checks, after the test, the pages it loaded (each distinct pageKey once a worker run): each URL is
 * loaded again in the browser context that went there (same cookies), in a page of its own, and axe runs
 * on it once its script has started. The check happens when the context is closed (by the test or by
 * Playwright after it), so contexts a test makes itself are covered too.
 */
async function checkPages(
  context: BrowserContext,
  watched: WatchedContext,
  testInfo: TestInfo,
  failures: string[],
) {
  const urls = [...watched.urls].map((url) => new URL(url));
  watched.urls.clear();
  if (testInfo.status !== testInfo.expectedStatus) return;
  // axe cannot run where scripts are off: its run waits on timers that never fire there. A page served to
  // a browser without JavaScript is the markup React hydrates, checked when a test loads it with scripts.
  if (!watched.javaScript) return;
  const roles = new Map<string, Promise<string>>();
  const roleAt = (origin: string) => {
    if (!roles.has(origin)) roles.set(origin, signedInAs(context, origin));
    return roles.get(origin)!;
  };
  const toCheck = new Map<string, URL>();
  for (const url of urls) {
    if (!/^https?:$/.test(url.protocol)) continue;
    const cookies = await context.cookies(url.origin);
    const lang =
      url.searchParams.get("lang") ??
      cookies.find((cookie) => cookie.name === "hostfront_lang")?.value ??
      "default";
    const key = pageKey(url, lang, await roleAt(url.origin), watched.phone, watched.javaScript);
    if (claimPage(key, testInfo, true) && !toCheck.has(key)) toCheck.set(key, url);
  }
  if (toCheck.size === 0) return;

  await test.step(
    `axe: ${toCheck.size} page(s)`,
    async () => {
      // Loading and checking a page takes about a second: the test's time is not spent on it.
      testInfo.setTimeout(testInfo.timeout + toCheck.size * 10_000);
      watched.checking = true;
      const page = await context.newPage();
      try {
        for (const [key, url] of toCheck) {
          const l0 = Date.now();
          const response = await page.goto(url.href).catch((error: Error) => error);
          if (response instanceof Error || !response) continue; // a download, an aborted load
          if (!(response.headers()["content-type"] ?? "").includes("text/html")) continue;
          await waitForPage(page);
          if (process.env.AXE_DEBUG) console.log(`load ${Date.now() - l0} ms ${url.href}`);
          const landed = new URL(page.url());
          const lang = await page.evaluate(() => document.documentElement.lang);
          const role = await roleAt(landed.origin);
          const landedKey = pageKey(landed, lang, role, watched.phone, watched.javaScript);
          const claimed = claimPage(key, testInfo);
          if (!(landedKey === key ? claimed : claimPage(landedKey, testInfo))) continue;
          const where = `${landed.pathname}${landed.search} (${lang}, ${role}${watched.phone ? ", phone" : ""}${watched.javaScript ? "" : ", no JavaScript"})`;
          const t0 = Date.now();
          failures.push(...(await axeViolations(page)).map((line) => `${where}: ${line}`));
          if (process.env.AXE_DEBUG) console.log(`axe ${Date.now() - t0} ms ${where}`);
        }
      } finally {
        await page.close();
        watched.checking = false;
      }
    },
    { box: true },
  );
}

/** "visitor", "customer" or "admin": who this context is signed in as on that server. */
async function signedInAs(context: BrowserContext, origin: string) {
  const cookies = await context.cookies(origin);
  if (!cookies.some((cookie) => cookie.name.includes("session_token"))) return "visitor";
  const admin = await context.request.get(`${origin}/admin`, { maxRedirects: 0 });
  return admin.status() === 200 ? "admin" : "customer";
}

interface Fixtures {
  /** A customer registered for this test through the form; the page is left on /login, signed out. */
  customer: Customer;
  /** Automatic: every page the test loads, in any context, is checked with axe (checkPages). */
  axe: void;
}

export const test = base.extend<Fixtures>({
  customer: async ({ page }, provide) => {
    await provide(await registerCustomer(page));
  },
  axe: [
    async ({ browser, context, javaScriptEnabled, viewport }, provide, testInfo) => {
      const failures: string[] = [];
      const contexts = new Map<BrowserContext, WatchedContext>();
      const watch = (watchedContext: BrowserContext, options: WatchOptions) => {
        const watched: WatchedContext = {
          urls: new Set(),
          javaScript: options.javaScriptEnabled ?? true,
          phone: (options.viewport?.width ?? 1280) < 640,
          checking: false,
        };
        contexts.set(watchedContext, watched);
        const watchPage = (page: Page) =>
          page.on("framenavigated", (frame) => {
            if (frame === page.mainFrame() && !watched.checking) watched.urls.add(frame.url());
          });
        watchedContext.pages().forEach(watchPage);
        watchedContext.on("page", watchPage);
        const close = watchedContext.close.bind(watchedContext);
        watchedContext.close = async (options) => {
          try {
            await checkPages(watchedContext, watched, testInfo, failures);
          } finally {
            // A navigation still settling as it closes can add a page after the check: not checkable.
            watched.closed = true;
            await close(options);
          }
        };
      };
      watch(context, { javaScriptEnabled, viewport });
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const created = await newContext(options);
        watch(created, options ?? {});
        return created;
      };
      try {
        await provide();
      } finally {
        browser.newContext = newContext;
      }
      for (const [watchedContext, watched] of contexts) {
        if (!watched.closed && watched.urls.size > 0)
          await checkPages(watchedContext, watched, testInfo, failures);
      }
      expect(failures, "axe violations on the pages this test loaded").toEqual([]);
    },
    { auto: true },
  ],
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

type WatchOptions = { javaScriptEnabled?: boolean; viewport?: { width: number } | null };

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

/** Whether the page fits its viewport's width (nothing scrolls sideways), as a phone shows it. */
export async function noHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  );
}
