import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  registerOverHttp,
  signInOverHttp,
  test,
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

test("moving between pages fetches no stylesheet: each page has it written in", async ({
  page,
}) => {
  const customer = await registerOverHttp(page);
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  const stylesheets: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "stylesheet" || request.url().endsWith(".css"))
      stylesheets.push(request.url());
  });
  await page.goto("/dashboard");
  await waitForPage(page);
  // Links React Router follows in the page: to a route with a stylesheet of its own (the order form)
  // and back, which runs the root's and the layout's loaders again.
  await page.getByRole("main").getByRole("link", { name: "Order New Service" }).click();
  await expect(page).toHaveURL(/\/order$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByRole("banner").getByRole("link", { name: "Dashboard" }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page
    .getByRole("navigation", { name: "Dashboard sections" })
    .getByRole("link", { name: "Billing" })
    .click();
  await expect(page).toHaveURL(/tab=billing/);
  await expect(page.getByText("Coin history")).toBeVisible();
  expect(stylesheets).toEqual([]);
  // Styled all along: the written stylesheet is still the page's.
  expect(
    await page.evaluate(
      () =>
        getComputedStyle(document.body).fontFamily.length > 0 &&
        document.querySelectorAll("style[data-page-style]").length,
    ),
  ).toBe(1);
});
