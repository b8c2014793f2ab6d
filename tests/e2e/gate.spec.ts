import type { Page } from "@playwright/test";
import {
  ENHANCE_SCRIPT,
  GATE_BASE_URL,
  registerOverHttp,
  signInOverHttp,
  waitForHydration,
  waitForPage,
  expect,
  test,
} from "./fixtures";

// These run against the server started with ENTRY_GATE=on. Playwright's Chromium is headless
// (navigator.webdriver is true), which the gate must catch; the quiz path pretends to be a person.
test.use({ baseURL: GATE_BASE_URL });
// Each of these waits out the gate's real 5-second check (twice for the quiz test), so they get more than
// the suite's default 15 s on a busy two-core machine.
test.describe.configure({ timeout: 45_000 });

/**
 * Notes whether the page showed "Checking your browser..." at any moment: the check lasts its real 5 s,
 * which a test busy on a loaded machine could miss if it looked afterwards; the page tells the test as it
 * happens (it survives the gate's own navigation).
 */
async function watchChecking(page: Page) {
  const seen = { checking: false };
  await page.exposeFunction("reportGateChecking", () => {
    seen.checking = true;
  });
  await page.addInitScript(() => {
    const look = () => {
      for (const heading of document.querySelectorAll("h2"))
        if (heading.textContent?.includes("Checking your browser") && heading.checkVisibility())
          (window as unknown as { reportGateChecking: () => void }).reportGateChecking();
    };
    new MutationObserver(look).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  return seen;
}

test("an automated browser is sent to /bot-detected after the check", async ({ page }) => {
  const seen = await watchChecking(page);
  const response = await page.goto("/");
  // The real page is in the HTML under the overlay, for crawlers and link previews.
  const html = (await response?.text()) ?? "";
  expect(html).toContain("Game servers that stay online");
  expect(html).toContain("€4.50");
  await expect(page.getByText("Game servers that stay online")).toBeVisible();
  await expect(page).toHaveURL(/\/bot-detected$/, { timeout: 10_000 });
  expect(seen.checking).toBe(true);
  await expect(page.getByRole("heading", { name: "Automated browser detected" })).toBeVisible();
});

test.describe("a person", () => {
  test.use({
    userAgent:
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36",
  });

  test("answers the quiz wrong, then right, and is not asked again", async ({ page }) => {
    await page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false }),
    );
    await page.goto("/");
    const question = page.getByText(/What is \d × \d\?/);
    await expect(question).toBeVisible({ timeout: 10_000 });
    // The answer field has the focus, and the keyboard cannot reach the (inert) page under the overlay.
    await expect(page.getByLabel(/What is/)).toBeFocused();
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(
        () =>
          document.activeElement === document.body ||
          Boolean(document.activeElement?.closest('[role="dialog"]')),
      );
      expect(inside, `focus after ${i + 1} Tab presses`).toBe(true);
    }
    const [a, b] = ((await question.textContent()) ?? "").match(/\d/g)!.map(Number);
    await page.getByLabel(/What is/).fill(String(a! * b! + 1));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Incorrect answer. Please try again.")).toBeVisible();
    const [c, d] = ((await question.textContent()) ?? "").match(/\d/g)!.map(Number);
    await page.getByLabel(/What is/).fill(String(c! * d!));
    await page.getByRole("button", { name: "Continue" }).click();
    // A right answer shows "Loading..." for a moment, then takes the gate away.
    await expect(page.getByRole("dialog").getByText("Loading...")).toBeVisible();
    await expect(page.getByRole("dialog")).toBeHidden();

    await page.reload();
    // Not asked again. The page's script has run and this page has the gate...
    await waitForPage(page);
    await expect(page.locator("template[data-entry-gate]")).toHaveCount(1);
    // ...which decides on the tick after (a zero timer, entry-gate-flow.ts). A timer set now runs after
    // that one, by when a gate asking again has put its dialog up: it would still be there, counting down.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByText("Checking your browser...")).toHaveCount(0);
  });

  test("a signed-in customer gets the same gate from the hydrated page", async ({ page }) => {
    await page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false }),
    );
    const seen = await watchChecking(page);
    const customer = await registerOverHttp(page);
    expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.locator(ENHANCE_SCRIPT)).toHaveCount(0);
    const question = page.getByText(/What is \d × \d\?/);
    await expect(question).toBeVisible({ timeout: 10_000 });
    expect(seen.checking).toBe(true);
    await expect(page.getByLabel(/What is/)).toBeFocused();
    const [a, b] = ((await question.textContent()) ?? "").match(/\d/g)!.map(Number);
    await page.getByLabel(/What is/).fill(String(a! * b!));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Game servers that stay online",
    );
  });

  test("an error during the check goes to /verification-failed", async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false });
      // The gate reads sessionStorage first; make that throw.
      Object.defineProperty(window, "sessionStorage", {
        get() {
          throw new Error("storage blocked");
        },
      });
    });
    await page.goto("/");
    await expect(page).toHaveURL(/\/verification-failed$/, { timeout: 10_000 });
    await expect(page.getByRole("heading", { name: "Verification failed" })).toBeVisible();
  });
});
