import type { Page } from "@playwright/test";
import {
  ENHANCE_SCRIPT,
  expect,
  fillRegisterForm,
  header,
  logoutFromHeader,
  signInOverHttp,
  test,
  toast,
  uniqueEmail,
  USER_PASSWORD,
  visit,
  waitForHydration,
  waitForPage,
  waitForReactOn,
  watchButton,
  expectAccessible,
} from "./fixtures";

// An anonymous visitor's public pages are the server's HTML plus one small script (ADR 13); a signed-in
// visitor's are hydrated by React as before. These check both, and that everything a visitor could do
// with React still works with the enhance script.

const PUBLIC_PAGES = [
  "/",
  "/services/samp",
  "/game-hosting",
  "/about",
  "/contact",
  "/service-terms",
  "/phpmyadmin",
  "/login",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/some/unknown/page",
];

/** The public pages that prefetch the dashboard's scripts (`SIGN_IN_PAGE`). */
const SIGN_IN_PAGES = ["/login", "/register"];

/** The scripts the page asked for, by path. */
function scriptsOf(page: Page) {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

test("an anonymous visitor's public pages carry the enhance script and nothing of React", async ({
  page,
  request,
}) => {
  const scripts = scriptsOf(page);
  const requested: string[] = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  for (const path of PUBLIC_PAGES) {
    const html = await (await request.get(path)).text();
    expect(html, path).not.toContain("modulepreload");
    expect(html, path).not.toContain("__reactRouterContext");
    // One script element that runs, the enhance script written into the page (no request of its own),
    // with the page's CSP nonce; it runs, so the nonce is the one the CSP allows. The sign-in pages
    // also list the dashboard's files, as data that never runs (ADR 51): the enhance script prefetches
    // them into the cache, which is no script request (`scripts` below stays empty).
    const elements = [
      expect.stringMatching(/^<script type="module" nonce="[^"]+" data-enhance="">$/),
      ...(SIGN_IN_PAGES.includes(path)
        ? ['<script type="application/json" data-prefetch="">']
        : []),
    ];
    expect(html.match(/<script\b[^>]*>/g), path).toEqual(elements);
    const code = /<script type="module" nonce="[^"]+" data-enhance="">([^<]*)<\/script>/.exec(html);
    expect(code?.[1]?.length, `${path}: the enhance script stays small`).toBeLessThan(12 * 1024);
    await visit(page, path);
    expect(await page.locator("script").count(), path).toBe(elements.length);
    expect(
      await page.evaluate(() => Object.keys(document).some((k) => k.startsWith("__react"))),
      path,
    ).toBe(false);
  }
  expect(scripts).toEqual([]);
  // The icon is in the page too.
  expect(requested.filter((path) => /favicon/.test(path))).toEqual([]);
});

test("a signed-in customer's public pages hydrate, and the bell works", async ({
  page,
  customer,
}) => {
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  for (const path of ["/", "/services/samp", "/about"]) {
    const scripts = scriptsOf(page);
    await visit(page, path);
    await waitForHydration(page);
    await expect(page.locator(ENHANCE_SCRIPT)).toHaveCount(0);
    // Served as the hydrated app: its module preloads are in the HTML. (Not looked for in the live page:
    // React Router renders them only until hydration, and any later render of the document drops them.)
    const html = await (await page.request.get(path)).text();
    expect(html, path).toContain('rel="modulepreload"');
    expect(html, path).not.toContain("data-enhance");
    expect(
      scripts.some((path) => /entry\.client/.test(path)),
      path,
    ).toBe(true);
  }
  const bell = header(page).getByRole("button", { name: "Notifications: 0 unread" });
  await waitForReactOn(bell);
  await bell.click();
  await expect(page.getByRole("menu").getByText("You have no notifications.")).toBeVisible();
});

test("a signed-in customer's coin button and bell work as soon as the page has hydrated", async ({
  page,
  customer,
}) => {
  await signInOverHttp(page, customer.email, customer.password);
  // Code the page would load on demand (not among the modules its HTML preloads) never arrives here: the
  // header's buttons must not depend on any. (They did: a click made before that code had come was
  // lost, on a slow phone as in a test run.)
  const html = await (await page.request.get("/about")).text();
  const preloaded = new Set(
    [...html.matchAll(/rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]),
  );
  await page.route(/\/assets\/.*\.js$/, (route) =>
    preloaded.has(new URL(route.request().url()).pathname) ? route.continue() : undefined,
  );
  await visit(page, "/about");
  await waitForHydration(page);
  await header(page)
    .getByRole("button", { name: /0\.00 coins/ })
    .click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await header(page).getByRole("button", { name: "Notifications: 0 unread" }).click();
  await expect(page.getByRole("menu").getByText("You have no notifications.")).toBeVisible();
  await expectAccessible(page);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the menu button opens and closes the menu", async ({ page }) => {
    await visit(page, "/about");
    const banner = page.getByRole("banner");
    const menu = page.locator("#mobile-menu");
    const button = banner.getByRole("button", { name: "Open menu" });
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toHaveAttribute("aria-controls", "mobile-menu");
    await button.click();
    await expect(menu).toBeVisible();
    const close = banner.getByRole("button", { name: "Close menu" });
    await expect(close).toHaveAttribute("aria-expanded", "true");
    await menu.getByRole("link", { name: "Contact", exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await waitForPage(page);
    await banner.getByRole("button", { name: "Open menu" }).click();
    await banner.getByRole("button", { name: "Close menu" }).click();
    await expect(page.locator("#mobile-menu")).toBeHidden();
    await expect(banner.getByRole("button", { name: "Open menu" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });
});

test("the Services disclosure closes on Escape, a click elsewhere and Tab away", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await visit(page, "/");
  const trigger = header(page).getByRole("button", { name: "Services" });
  const list = page.locator("#services-menu");
  await expect(list).toBeHidden();

  await trigger.click();
  await expect(trigger).toHaveAttribute("aria-expanded", "true");
  await expect(list.getByRole("link", { name: "VPS Hosting" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(list).toBeHidden();
  await expect(trigger).toHaveAttribute("aria-expanded", "false");
  await expect(trigger).toBeFocused();

  await trigger.click();
  await expect(list).toBeVisible();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(list).toBeHidden();

  await trigger.click();
  await expect(list).toBeVisible();
  // Through its three links and on to About.
  for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
  await expect(header(page).getByRole("link", { name: "About" })).toBeFocused();
  await expect(list).toBeHidden();

  await trigger.click();
  await list.getByRole("link", { name: "MTA Hosting" }).click();
  await expect(page).toHaveURL(/\/services\/mta$/);
});

test("the login page's password toggle and its refusals, as a plain post", async ({
  page,
  customer,
}) => {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST")
      posts.push(
        `${request.isNavigationRequest() ? "page" : "fetch"} ${new URL(request.url()).pathname}`,
      );
  });
  await visit(page, "/login");
  const input = page.locator("input#password");
  const toggle = page.locator('button[aria-controls="password"]');
  await input.fill("typed");
  await toggle.click();
  await expect(input).toHaveAttribute("type", "text");
  await expect(toggle).toHaveAccessibleName("Hide password");
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await toggle.click();
  await expect(input).toHaveAttribute("type", "password");
  await expect(toggle).toHaveAccessibleName("Show password");

  await page.getByLabel("Email", { exact: true }).fill(customer.email);
  await input.fill(`${customer.password}-wrong`);
  await page.getByRole("button", { name: "Sign In" }).click();
  await waitForPage(page);
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  // What was typed stays, the password excepted.
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(customer.email);
  await expect(input).toHaveValue("");

  await page.getByLabel("Email", { exact: true }).fill("");
  await page.getByRole("button", { name: "Sign In" }).click();
  await waitForPage(page);
  await expect(page.locator("#email-error")).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Email", { exact: true }).fill(customer.email);
  await input.fill(customer.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(toast(page, "Login successful!")).toBeVisible();
  expect(posts).toEqual(["page /login", "page /login", "page /login"]);
});

test("registration as a plain post: refusals keep the values, success shows the toast on /login", async ({
  page,
}) => {
  const email = uniqueEmail("plain");
  await visit(page, "/register");
  await fillRegisterForm(page, {
    name: "Plain Post",
    email,
    password: USER_PASSWORD,
    confirmPassword: `${USER_PASSWORD}-other`,
  });
  const states = await watchButton(page.getByRole("button", { name: "Create Account" }));
  await page.getByRole("button", { name: "Create Account" }).click();
  await waitForPage(page);
  expect(states).toContainEqual({ text: "Creating account...", disabled: true, busy: "true" });
  await expect(page.getByText("Passwords do not match", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Full name", { exact: true })).toHaveValue("Plain Post");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);

  await fillRegisterForm(page, { name: "Plain Post", email, password: USER_PASSWORD });
  // The page's clock from here on is the test's, stopped: the toast's 4 s are run through, not waited
  // for.
  await page.clock.install();
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await waitForPage(page);
  const registered = toast(page, "Registration successful! Please login.");
  await expect(registered).toBeVisible();
  // Gone after 4 s, as the hydrated pages' are.
  await page.clock.runFor(3_900);
  await expect(registered).toBeVisible();
  await page.clock.runFor(200);
  await expect(registered).toBeHidden();
});

test("a flashed toast on a page served without React closes with its button", async ({ page }) => {
  await visit(page, "/register");
  await fillRegisterForm(page, { name: "Closes", email: uniqueEmail(), password: USER_PASSWORD });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await waitForPage(page);
  const registered = toast(page, "Registration successful! Please login.");
  await expect(registered).toBeVisible();
  await page.getByRole("button", { name: "Close notification" }).click();
  await expect(registered).toBeHidden();
  // Flashed once: the next page has none.
  await visit(page, "/login");
  await expect(page.locator("[data-toast]")).toHaveCount(0);
});

test("the contact form says it is sending while its post is under way", async ({ page }) => {
  await visit(page, "/contact");
  await page.getByLabel("Name").fill("Yassine");
  await page.getByLabel("Email").first().fill("yassine@example.com");
  await page.getByLabel("Subject").fill("Busy");
  await page.getByLabel("Message").fill("Hello");
  const states = await watchButton(page.getByRole("button", { name: "Send Message" }));
  await page.getByRole("button", { name: "Send Message" }).click();
  await waitForPage(page);
  expect(states).toContainEqual({ text: "Sending...", disabled: true, busy: "true" });
  await expect(page.getByText("Your message has been sent!", { exact: false })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a customer signs in and out, and the toasts are in the page", async ({ page }) => {
    const email = uniqueEmail("nojs");
    await page.goto("/register");
    await fillRegisterForm(page, { name: "No Script", email, password: USER_PASSWORD });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, "Registration successful! Please login.")).toBeVisible();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(USER_PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await logoutFromHeader(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page, "Logged out successfully")).toBeVisible();
  });
});
