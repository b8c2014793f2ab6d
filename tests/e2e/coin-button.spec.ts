import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  header,
  holdScripts,
  signInOverHttp,
  test,
  visit,
  waitForHydration,
  waitForReactOn,
} from "./fixtures";

/** The header's coin balance button, which opens the coin dialog (before React runs too). */
function coinButton(page: Page) {
  return header(page).getByRole("button", { name: /^Coin balance:/ });
}

test("right after signing in, a tap on the coin button before the scripts run opens the coin dialog", async ({
  page,
  customer,
}) => {
  await visit(page, "/login");
  const scripts = await holdScripts(page);
  // The login page needs no script file (ADR 13); the dashboard it leads to does, and gets none.
  await page.getByLabel("Email", { exact: true }).fill(customer.email);
  await page.getByLabel("Password", { exact: true }).fill(customer.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(coinButton(page)).toBeVisible();
  expect(scripts.count()).toBeGreaterThan(0);
  expect(
    await page.evaluate(() =>
      Object.keys(document).some((key) => key.startsWith("__reactContainer$")),
    ),
  ).toBe(false);

  await coinButton(page).click();
  // The dialog, written into the page and opened by the browser (ADR 50): the page stays.
  const dialog = page.getByRole("dialog", { name: "Buy coins" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(dialog.getByText("Your balance: 0.00 coins")).toBeVisible();
  await expect(dialog.getByText("Open a support ticket.")).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Open a support ticket" })).toHaveAttribute(
    "href",
    "/support/new?topic=coins",
  );
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // The coins page says the same, for the links that lead there (a service short of coins).
  // (Its scripts held back too: "commit", not the load that waits for them.)
  await page.goto("/coins", { waitUntil: "commit" });
  // (The page, not the header's dialog, closed in it.)
  const coinsPage = page.getByRole("main");
  await expect(coinsPage.getByRole("heading", { level: 1, name: "Buy coins" })).toBeVisible();
  await expect(coinsPage.getByText("Your balance: 0.00 coins")).toBeVisible();
  await expect(coinsPage.getByText("Open a support ticket.")).toBeVisible();
  await expect(coinsPage.getByRole("link", { name: "Open a support ticket" })).toHaveAttribute(
    "href",
    "/support/new?topic=coins",
  );
  await scripts.release();
});

test("on a CPU six times slower, a tap at once after the page loads opens something", async ({
  page,
  customer,
}) => {
  await signInOverHttp(page, customer.email, customer.password);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  try {
    await page.goto("/dashboard", { waitUntil: "commit" });
    await coinButton(page).click();
    // Before React ran the browser opens the dialog, after it React does: either way the tap was not
    // lost. (The coins page's heading, where the button led before the scripts until ADR 50, would
    // also do.)
    await expect(
      page
        .getByRole("dialog", { name: "Buy coins" })
        .or(page.getByRole("heading", { level: 1, name: "Buy coins" })),
    ).toBeVisible({ timeout: 15_000 });
  } finally {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  }
});

test("with the scripts loaded, the coin button opens the dialog as before", async ({
  page,
  customer,
}) => {
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  await visit(page, "/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  await waitForHydration(page);
  const button = coinButton(page);
  await waitForReactOn(button);
  await expect(button).toHaveAttribute("aria-expanded", "false");

  await button.click();
  const dialog = page.getByRole("dialog", { name: "Buy coins" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  // (The rest of the page is hidden from assistive technology while the dialog is open, as before.)
  await expect(page.locator('header [aria-haspopup="dialog"]')).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  await expect(dialog).toContainText("Your balance: 0.00 coins");
  await expect(dialog).toContainText("support ticket");
  // Closed, the focus goes back to the button; the keyboard opens it again (Enter and Space).
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await button.focus();
  await page.keyboard.press(" ");
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The ticket link closes the dialog and opens the form, as before.
  await dialog.getByRole("link", { name: "Open a support ticket" }).click();
  await expect(page).toHaveURL(/\/support\/new\?topic=coins$/);
  await expect(dialog).toBeHidden();
});

test("the coin dialog with the keyboard: focus goes in, Escape closes it, focus comes back", async ({
  page,
  customer,
}) => {
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  await visit(page, "/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  await waitForHydration(page);
  const button = coinButton(page);
  await waitForReactOn(button);
  await button.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Buy coins" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleDescription(/coins/i);
  const focusInside = () =>
    page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"], dialog')));
  expect(await focusInside()).toBe(true);
  // Tab never reaches the page behind, which is inert: it goes through the dialog, and past its last
  // control to the browser's own (as a native modal does), never to the page.
  const focusBehind = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      return Boolean(active && active !== document.body && !active.closest("dialog"));
    });
  for (let i = 0; i < 4; i += 1) {
    await page.keyboard.press("Tab");
    expect(await focusBehind()).toBe(false);
  }
  // The page behind does not scroll while it is open, and does again once it is closed.
  const overflow = () => page.evaluate(() => getComputedStyle(document.documentElement).overflowY);
  expect(await overflow()).toBe("hidden");
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute("aria-expanded", "false");
  expect(await overflow()).not.toBe("hidden");

  // A click on the backdrop (outside the box) closes it too, and the focus comes back all the same.
  await page.keyboard.press(" ");
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, Math.max(2, box.y / 2));
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  // A click inside it does not.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await dialog.getByText("Your balance").click();
  await expect(dialog).toBeVisible();
});

test("the coins page asks a visitor to sign in first", async ({ page }) => {
  await page.goto("/coins");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcoins$/);
});
