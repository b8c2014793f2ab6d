/**
 * The parts of `npm run bench:web` that a person's own steps make, in Chromium driven by Playwright (not
 * Lighthouse): the script the first signed-in page still fetches when its visitor came through /login,
 * and the interaction to next paint (INP) of the taps the budget names (opening a menu, switching a
 * dashboard tab), with the CPU slowed four times.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";

/** A phone's screen, as Lighthouse's mobile runs use. */
const PHONE = { width: 412, height: 823 };
/** Chromium's CPU slowdown for the INP runs (Lighthouse's mobile setting). */
export const INP_CPU_SLOWDOWN = 4;

/** Sum of the encoded (gzip as served) bodies of the page's script resources, as the browser recorded. */
function scriptBytes(page: Page, onlyFromNetwork: boolean): Promise<number> {
  return page.evaluate((network) => {
    let total = 0;
    for (const entry of performance.getEntriesByType("resource") as PerformanceResourceTiming[]) {
      if (!new URL(entry.name).pathname.endsWith(".js")) continue;
      // transferSize 0 with a body: answered from the browser's cache, nothing on the network.
      if (network && entry.transferSize === 0) continue;
      total += entry.encodedBodySize;
    }
    return total;
  }, onlyFromNetwork);
}

async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
}

export interface AfterLogin {
  /** Script bytes /login loaded: its own and what it prefetched. */
  loginBytes: number;
  /** Script bytes the first signed-in page then fetched over the network. */
  firstPageBytes: number;
  firstPage: string;
}

/**
 * A visitor opens /login with a cold cache, stays until the page is quiet (a person types their
 * address and password meanwhile), signs in through the form, and lands on their first signed-in
 * page: what that page still had to fetch.
 */
export async function afterLogin(
  browser: Browser,
  origin: string,
  account: { email: string; password: string },
): Promise<AfterLogin> {
  const context = await browser.newContext({ viewport: PHONE });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/login`, { waitUntil: "networkidle" });
    const loginBytes = await scriptBytes(page, false);
    await page.getByLabel("Email", { exact: true }).fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await Promise.all([
      page.waitForURL((url) => url.pathname !== "/login"),
      page.getByRole("button", { name: "Sign In" }).click(),
    ]);
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    return {
      loginBytes,
      firstPageBytes: await scriptBytes(page, true),
      firstPage: new URL(page.url()).pathname,
    };
  } finally {
    await context.close();
  }
}

export interface Interaction {
  name: string;
  who: "customer" | "admin";
  path: string;
  /** The tap, and what shows once it is answered. */
  act: (page: Page) => Promise<void>;
}

/** The taps the budget names: opening the account menu, and switching a dashboard tab. */
export const INTERACTIONS: Interaction[] = [
  {
    name: "open the account menu",
    who: "admin",
    path: "/admin/clients",
    act: async (page) => {
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menu").waitFor();
    },
  },
  {
    name: "open the phone menu",
    who: "customer",
    path: "/dashboard",
    act: async (page) => {
      await page.getByRole("button", { name: "Open menu" }).click();
      await page.locator("#mobile-menu").waitFor();
    },
  },
  {
    name: "switch a dashboard tab",
    who: "customer",
    path: "/dashboard",
    act: async (page) => {
      await page
        .getByRole("navigation", { name: "Dashboard sections" })
        .getByRole("link", { name: "Billing" })
        .click();
      await page.waitForURL(/\/dashboard\/billing/);
      await page.getByText("Coin history").first().waitFor();
    },
  },
];

/**
 * The interaction's INP: the longest Event Timing entry (input to next paint, in 8 ms steps) of the
 * interaction the tap made, once the page has hydrated, on a phone's screen with the CPU slowed.
 */
async function oneInp(context: BrowserContext, origin: string, step: Interaction) {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: INP_CPU_SLOWDOWN });
    await page.goto(`${origin}${step.path}`);
    await hydrated(page);
    await page.evaluate(() => {
      const entries: { id: number; duration: number }[] = [];
      (window as unknown as { __inp: typeof entries }).__inp = entries;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as PerformanceEventTiming[])
          if (entry.interactionId)
            entries.push({ id: entry.interactionId, duration: entry.duration });
        // The DOM types lack Event Timing's durationThreshold; 16 ms is its smallest.
      }).observe({
        type: "event",
        durationThreshold: 16,
        buffered: true,
      } as PerformanceObserverInit);
    });
    await step.act(page);
    // Event Timing reports an interaction after its next paint, to observers a little later still;
    // one under 16 ms is not reported at all (read as 0).
    await page.waitForTimeout(500);
    return page.evaluate(() => {
      const entries = (window as unknown as { __inp: { id: number; duration: number }[] }).__inp;
      return entries.reduce((worst, entry) => Math.max(worst, entry.duration), 0);
    });
  } finally {
    await page.close();
  }
}

/** Each interaction `runs` times, each on a freshly loaded page: every run's INP, in ms. */
export async function measureInp(
  browser: Browser,
  origin: string,
  cookies: Record<"customer" | "admin", string>,
  runs: number,
): Promise<{ step: Interaction; inps: number[] }[]> {
  const results = [];
  for (const step of INTERACTIONS) {
    const context = await browser.newContext({
      viewport: PHONE,
      extraHTTPHeaders: { cookie: cookies[step.who] },
    });
    try {
      const inps: number[] = [];
      for (let run = 0; run < runs; run++) inps.push(await oneInp(context, origin, step));
      results.push({ step, inps });
    } finally {
      await context.close();
    }
  }
  return results;
}
