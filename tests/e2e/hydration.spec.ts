import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  registerOverHttp,
  signInOverHttp,
  submitLogin,
  test,
  visit,
  waitForPage,
} from "./fixtures";

/**
 * What hydrating changed in the document, noted from the end of parsing until the page marks itself
 * hydrated: each node added, and each element removed that is not a script already run. A node made
 * again or moved while hydrating is work before a tap is answered (and a mismatch React mended), and a
 * <style> or <link> moved in <head> restyles the whole page.
 */
async function watchHydration(page: Page) {
  await page.addInitScript(() => {
    const changes: string[] = [];
    (window as unknown as { __changes: string[] }).__changes = changes;
    const name = (node: Node) =>
      node instanceof Element
        ? `${node.localName}${node.getAttribute("rel") ? `[rel=${node.getAttribute("rel")}]` : ""}`
        : node.nodeName;
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        const where = name(record.target);
        for (const node of record.addedNodes) changes.push(`${where} + ${name(node)}`);
        for (const node of record.removedNodes) {
          // React Router's inline scripts have run, and React's comments mark text and boundaries.
          if (node.nodeType === Node.COMMENT_NODE || name(node) === "script") continue;
          changes.push(`${where} - ${name(node)}`);
        }
      }
    });
    document.addEventListener("DOMContentLoaded", () => {
      changes.push(
        document.documentElement.hasAttribute("data-hydrated") ? "hydrated before parsed" : "",
      );
      observer.observe(document, { childList: true, subtree: true });
    });
    new MutationObserver(() => {
      if (document.documentElement?.hasAttribute("data-hydrated")) observer.disconnect();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
  });
}

async function changesWhileHydrating(page: Page, path: string) {
  await page.goto(path);
  await waitForPage(page);
  return (
    await page.evaluate(() => (window as unknown as { __changes: string[] }).__changes)
  ).filter(Boolean);
}

test("hydrating a customer's page leaves the server's nodes as they are", async ({ page }) => {
  const customer = await registerOverHttp(page);
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  await watchHydration(page);
  for (const path of ["/dashboard?tab=billing", "/order?product=1", "/support/new"]) {
    expect(await changesWhileHydrating(page, path), path).toEqual([]);
  }
});

test("hydrating an admin's page leaves the server's nodes as they are", async ({ page }) => {
  expect(await signInOverHttp(page, ADMIN_EMAIL, ADMIN_PASSWORD)).toBe("/admin");
  await watchHydration(page);
  for (const path of ["/admin/clients", "/admin/orders"]) {
    expect(await changesWhileHydrating(page, path), path).toEqual([]);
  }
});

test("a signed-in page links the stylesheet /login loaded, and moving between pages fetches none", async ({
  page,
}) => {
  const customer = await registerOverHttp(page);
  // The sign-in page (served without React) and a signed-in page (hydrated) link the same hashed file,
  // which the browser keeps for a year: the first page after signing in finds it in its cache.
  await page.goto("/login");
  const linked = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => l.href),
    );
  const fromLogin = await linked();
  expect(fromLogin).toHaveLength(1);
  const file = await page.request.get(fromLogin[0]!);
  expect(file.headers()["cache-control"]).toMatch(
    /max-age=31536000.*immutable|immutable.*max-age=31536000/,
  );
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  const stylesheets: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "stylesheet" || request.url().endsWith(".css"))
      stylesheets.push(request.url());
  });
  await page.goto("/dashboard");
  await waitForPage(page);
  expect(await linked()).toEqual(fromLogin);
  stylesheets.length = 0;
  // Links React Router follows in the page: to a route with a stylesheet of its own (the order form)
  // and back, which runs the root's and the layout's loaders again. React Router finds the linked file
  // in the page and neither fetches nor waits for it again.
  await page.getByRole("main").getByRole("link", { name: "Order New Service" }).click();
  await expect(page).toHaveURL(/\/order$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByRole("banner").getByRole("link", { name: "Dashboard" }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page
    .getByRole("navigation", { name: "Dashboard sections" })
    .getByRole("link", { name: "Billing" })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/billing/);
  await expect(page.getByText("Coin history")).toBeVisible();
  expect(stylesheets).toEqual([]);
  // Styled all along by that one file, and nothing written into the page.
  expect(
    await page.evaluate(() => ({
      styled: getComputedStyle(document.body).fontFamily.length > 0,
      written: document.querySelectorAll("head style").length,
    })),
  ).toEqual({ styled: true, written: 0 });
  expect(await linked()).toEqual(fromLogin);
});

test("the sign-in page warms the dashboard: every script of the page after signing in comes from the cache", async ({
  page,
}) => {
  const customer = await registerOverHttp(page);
  await visit(page, "/login");
  // The page lists the files; the enhance script adds their prefetch links once the page has loaded.
  const inHead = () =>
    page.evaluate(() =>
      [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')].map(
        (l) => l.href,
      ),
    );
  await expect.poll(async () => (await inHead()).length).toBeGreaterThan(0);
  const prefetched = await inHead();
  // React Router's manifest, its runtime, our shared chunks, and the root's, layout's and dashboard's own.
  expect(prefetched.length).toBeGreaterThanOrEqual(6);
  // The sign-in page itself runs no React: prefetched, not run.
  expect(await page.evaluate(() => "__reactRouterManifest" in window)).toBe(false);
  const fetched = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter(
          (entry) =>
            entry.name.endsWith(".js") && (entry as PerformanceResourceTiming).responseEnd > 0,
        )
        .map((entry) => entry.name),
    );
  await expect
    .poll(async () => {
      const done = await fetched();
      return prefetched.filter((href) => !done.includes(href));
    })
    .toEqual([]);

  await submitLogin(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((entry) => entry.name.endsWith(".js"))
      .map((entry) => ({
        name: entry.name,
        // 0 bytes over the network: answered from the cache.
        transferred: (entry as PerformanceResourceTiming).transferSize,
      })),
  );
  expect(scripts.length).toBeGreaterThanOrEqual(6);
  expect(scripts.filter((script) => script.transferred > 0)).toEqual([]);
  expect(scripts.map((script) => script.name).filter((name) => !prefetched.includes(name))).toEqual(
    [],
  );
});
