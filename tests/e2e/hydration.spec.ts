import type { Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  login,
  registerCustomer,
  submitLogin,
  test,
  waitForPage,
} from "./fixtures";

/**
 * What hydrating changed in the document, noted from the end of parsing until the page marks itself
 * hydrated: each node added, and each element removed that is not a script already run. Preact hydrates
 * what React wrote on the server (ADR 42); a node it made again or moved is work in the one long task
 * before a tap is answered, and a <style> or <link> moved in <head> restyles the whole page (issue 23).
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
  const customer = await registerCustomer(page);
  await submitLogin(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/dashboard/);
  await watchHydration(page);
  for (const path of ["/dashboard?tab=billing", "/order?product=1", "/support/new"]) {
    expect(await changesWhileHydrating(page, path), path).toEqual([]);
  }
});

test("hydrating an admin's page leaves the server's nodes as they are", async ({ page }) => {
  await login(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await watchHydration(page);
  for (const path of ["/admin/clients", "/admin/orders"]) {
    expect(await changesWhileHydrating(page, path), path).toEqual([]);
  }
});
