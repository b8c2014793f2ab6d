import type { Page } from "@playwright/test";
import { expect, test, waitForPage } from "./fixtures";

/** Console errors, uncaught page errors and CSP violations of the app's own origin. */
function collectProblems(page: Page, baseURL: string) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const url = message.location().url;
    // A failed request to another host (none are expected) is not the app's fault.
    if (url && !url.startsWith(baseURL)) return;
    problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

async function cspViolations(page: Page) {
  return page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

for (const path of ["/", "/login"]) {
  test(`no console errors or CSP violations on ${path}`, async ({ page, baseURL }) => {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const problems = collectProblems(page, baseURL ?? "");
    await page.goto(path);
    await waitForPage(page);
    await page.waitForLoadState("networkidle");
    expect(await cspViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
}
