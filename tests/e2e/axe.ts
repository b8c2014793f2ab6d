import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { ENHANCE_SCRIPT, pageReady } from "./page-ready";

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

/** Waits for the animations that end (a dialog or a toast fading in), not for spinners. */
async function animationsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Checks the page as it is now with axe (AXE_TAGS): for a state no navigation reaches, such as an open
 * dialog or menu. Every page a test loads is checked anyway (the `axe` fixture below); `include` narrows
 * the check to one part (a selector).
 */
export async function expectAccessible(page: Page, include?: string) {
  // A dialog fades in: its colours are checked once it has.
  await animationsEnded(page);
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

/** Whether the document has the app's own script: the enhance script, or React Router's modules. */
function appScriptIn(enhance: string) {
  return document.querySelector(`${enhance}, script[type="module"]`) !== null;
}

/** A URL without its fragment: the same document. */
function withoutHash(href: string) {
  const hash = href.indexOf("#");
  return hash === -1 ? href : href.slice(0, hash);
}

interface WatchedContext {
  /**
   * The URLs its pages' main frames navigated to (whatever started it: goto, a link, a form post) and
   * that were not checked where they stood (checkLive).
   */
  urls: Set<string>;
  javaScript: boolean;
  phone: boolean;
  checking: boolean;
  /** What the context was made with: a page is loaded again in a context made the same way. */
  options: WatchOptions;
  /** Closed by the test: its pages were checked as it closed, and it can be read no more. */
  closed?: boolean;
}

/** "visitor", "customer" or "admin": who this context is signed in as on that server. */
async function signedInAs(context: BrowserContext, origin: string) {
  const cookies = await context.cookies(origin);
  if (!cookies.some((cookie) => cookie.name.includes("session_token"))) return "visitor";
  const admin = await context.request.get(`${origin}/admin`, { maxRedirects: 0 });
  return admin.status() === 200 ? "admin" : "customer";
}

/**
 * The running test's check of a page where it stands (set by the `axe` fixture while a test runs):
 * waitForPage and waitForHydration call it once the page's script has run.
 */
let liveCheck: ((page: Page) => Promise<void>) | undefined;

/** Checks with axe the page a test waits on, once per page key a run (see the `axe` fixture). */
export async function checkLive(page: Page) {
  await liveCheck?.(page);
}

type WatchOptions = NonNullable<Parameters<Browser["newContext"]>[0]>;

/**
 * The `axe` fixture: every page a test loads, in any of its browser contexts, is checked with axe, each
 * distinct pageKey once a run.
 *
 * - Where it stands: when the test waits for a page's script (waitForPage, waitForHydration, so every
 *   visit()), the page as loaded is checked on the spot, before the test goes on.
 * - Loaded again: a page the test reached without waiting for it (a click, a redirect it only asserted
 *   the URL of), or one showing a toast or running under a fake clock (page.clock), is loaded again in
 *   a context made like the one that went there (same options, same cookies) and checked when that
 *   context closes (by the test or by Playwright after it), so contexts a test makes itself are
 *   covered too.
 */
export async function axeFixture(
  {
    browser,
    context,
    javaScriptEnabled,
    viewport,
  }: {
    browser: Browser;
    context: BrowserContext;
    javaScriptEnabled: boolean;
    viewport: WatchOptions["viewport"];
  },
  provide: () => Promise<void>,
  testInfo: TestInfo,
) {
  const failures: string[] = [];
  const contexts = new Map<BrowserContext, WatchedContext>();
  const unwatchedContext = browser.newContext.bind(browser);
  // Who a session is does not change while it lasts: asked once a session cookie.
  const roles = new Map<string, Promise<string>>();
  const roleNow = async (watchedContext: BrowserContext, origin: string) => {
    const cookies = await watchedContext.cookies(origin);
    const session = cookies.find((cookie) => cookie.name.includes("session_token"))?.value;
    if (!session) return "visitor";
    const key = `${origin} ${session}`;
    if (!roles.has(key)) roles.set(key, signedInAs(watchedContext, origin));
    return roles.get(key)!;
  };

  const watch = (watchedContext: BrowserContext, options: WatchOptions) => {
    const watched: WatchedContext = {
      urls: new Set(),
      javaScript: options.javaScriptEnabled ?? true,
      phone: (options.viewport?.width ?? 1280) < 640,
      checking: false,
      options,
    };
    contexts.set(watchedContext, watched);
    const watchPage = (page: Page) =>
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame() && !watched.checking)
          watched.urls.add(withoutHash(frame.url()));
      });
    watchedContext.pages().forEach(watchPage);
    watchedContext.on("page", watchPage);
    const close = watchedContext.close.bind(watchedContext);
    watchedContext.close = async (closeOptions) => {
      try {
        await checkPages(watchedContext, watched);
      } finally {
        // A navigation still settling as it closes can add a page after the check: not checkable.
        watched.closed = true;
        await close(closeOptions);
      }
    };
  };

  const where = (landed: URL, lang: string, role: string, watched: WatchedContext) =>
    `${landed.pathname}${landed.search} (${lang}, ${role}${watched.phone ? ", phone" : ""}${watched.javaScript ? "" : ", no JavaScript"})`;

  liveCheck = async (page) => {
    const watched = contexts.get(page.context());
    // axe cannot run where scripts are off: its run waits on timers that never fire there. A page served
    // to a browser without JavaScript is the markup React hydrates, checked when a test loads it with
    // scripts.
    if (!watched || watched.closed || watched.checking || !watched.javaScript) return;
    const href = withoutHash(page.url());
    const url = new URL(href);
    if (!/^https?:$/.test(url.protocol)) return;
    const state = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      // A toast closes itself after a few seconds, which the check must not use up; a fake clock
      // (page.clock) never fires the timers axe waits on. Such a page is loaded again after the test.
      toast: document.querySelector("[data-toast]") !== null,
      ownTimers: /\[native code\]/.test(Function.prototype.toString.call(window.setTimeout)),
    }));
    if (state.toast || !state.ownTimers) return;
    watched.urls.delete(href);
    const role = await roleNow(page.context(), url.origin);
    if (!claimPage(pageKey(url, state.lang, role, watched.phone, true), testInfo)) return;
    // The check's time is not the test's.
    testInfo.setTimeout(testInfo.timeout + 10_000);
    await animationsEnded(page);
    const violations = await axeViolations(page);
    failures.push(...violations.map((line) => `${where(url, state.lang, role, watched)}: ${line}`));
  };

  /** The pages a context went to that were not checked where they stood: loaded again and checked. */
  async function checkPages(watchedContext: BrowserContext, watched: WatchedContext) {
    const urls = [...watched.urls].map((url) => new URL(url));
    watched.urls.clear();
    if (testInfo.status !== testInfo.expectedStatus) return;
    if (!watched.javaScript) return;
    const toCheck = new Map<string, URL>();
    for (const url of urls) {
      if (!/^https?:$/.test(url.protocol)) continue;
      const cookies = await watchedContext.cookies(url.origin);
      const lang =
        url.searchParams.get("lang") ??
        cookies.find((cookie) => cookie.name === "hostfront_lang")?.value ??
        "default";
      const role = await roleNow(watchedContext, url.origin);
      const key = pageKey(url, lang, role, watched.phone, watched.javaScript);
      if (claimPage(key, testInfo, true) && !toCheck.has(key)) toCheck.set(key, url);
    }
    if (toCheck.size === 0) return;

    await test.step(
      `axe: ${toCheck.size} page(s) loaded again`,
      async () => {
        // Loading and checking a page takes about a second: the test's time is not spent on it.
        testInfo.setTimeout(testInfo.timeout + toCheck.size * 10_000);
        watched.checking = true;
        // A context of its own with the same cookies and screen: the test's may have a clock it
        // stopped (page.clock belongs to the context) or routes it holds.
        const checker = await unwatchedContext({
          ...watched.options,
          storageState: await watchedContext.storageState(),
        });
        const page = await checker.newPage();
        try {
          for (const [key, url] of toCheck) {
            const response = await page.goto(url.href).catch((error: Error) => error);
            if (response instanceof Error || !response) continue; // a download, an aborted load
            if (!(response.headers()["content-type"] ?? "").includes("text/html")) continue;
            // Another site's page (a payment provider's double) has neither of the app's scripts that
            // pageReady waits on: it is not the app's to check, and waiting for it would never end.
            if (!(await page.evaluate(appScriptIn, ENHANCE_SCRIPT))) continue;
            await pageReady(page);
            const landed = new URL(page.url());
            const lang = await page.evaluate(() => document.documentElement.lang);
            const role = await roleNow(watchedContext, landed.origin);
            const landedKey = pageKey(landed, lang, role, watched.phone, watched.javaScript);
            const claimed = claimPage(key, testInfo);
            if (!(landedKey === key ? claimed : claimPage(landedKey, testInfo))) continue;
            failures.push(
              ...(await axeViolations(page)).map(
                (line) => `${where(landed, lang, role, watched)}: ${line}`,
              ),
            );
          }
        } finally {
          await checker.close();
          watched.checking = false;
        }
      },
      { box: true },
    );
  }

  watch(context, { javaScriptEnabled, viewport });
  browser.newContext = async (options) => {
    const created = await unwatchedContext(options);
    watch(created, options ?? {});
    return created;
  };
  try {
    await provide();
  } finally {
    browser.newContext = unwatchedContext;
    liveCheck = undefined;
  }
  for (const [watchedContext, watched] of contexts) {
    if (!watched.closed && watched.urls.size > 0) await checkPages(watchedContext, watched);
  }
  expect(failures, "axe violations on the pages this test loaded").toEqual([]);
}
