import type { Page } from "@playwright/test";

/** The enhance script of a page served without React (app/entry.enhance.ts), written into the page. */
export const ENHANCE_SCRIPT = "script[data-enhance]";

/**
 * Waits until the page's own script has done its work: React's hydration (<html data-hydrated>), or on a
 * page served without React (an anonymous visitor's public page) the enhance script, which marks
 * <html data-enhanced> when it has set everything up. Each page waits for the one it was served with.
 */
export async function pageReady(page: Page) {
  await page.waitForFunction(
    // Between two documents (a form post's navigation) there may be no <html> yet: not ready, look again.
    (enhance) =>
      document.querySelector(enhance)
        ? (document.documentElement?.hasAttribute("data-enhanced") ?? false)
        : (document.documentElement?.hasAttribute("data-hydrated") ?? false),
    ENHANCE_SCRIPT,
  );
}
