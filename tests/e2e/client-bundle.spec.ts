import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  registerOverHttp,
  signInOverHttp,
  test,
  visit,
  waitForHydration,
} from "./fixtures";

// Forms are checked by the server, whose answer carries the messages: zod stays there. A page
// that imports a schema, or a value a schema computes, brings all of zod (about 24 KiB of gzip) to every
// page that shares the chunk. The rule that keeps it out is in docs/architecture.md (`*.schemas.ts`).
const ZOD_MARKERS = ["$ZodType", "ZodType", "ZodError", "zod"];

test("no script of the client build carries zod", async ({ page }) => {
  const customer = await registerOverHttp(page);
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  await visit(page, "/order");

  // Every script of the build the server is running (BUILD_DIR, as playwright.config.ts starts it),
  // whether a page loaded it or not.
  const assets = join(process.env.BUILD_DIR ?? "build", "client", "assets");
  const files = readdirSync(assets).filter((file) => file.endsWith(".js"));
  // The signed-in page above loaded its scripts from this folder: it is the build being served.
  const loaded = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name).pathname)
      .filter((name) => name.startsWith("/assets/") && name.endsWith(".js")),
  );
  expect(loaded.length).toBeGreaterThan(0);
  for (const src of loaded) expect(files).toContain(src.slice("/assets/".length));

  const withZod = files.flatMap((file) => {
    const body = readFileSync(join(assets, file), "utf8");
    const marker = ZOD_MARKERS.find((text) => body.includes(text));
    return marker ? [`${file} contains "${marker}"`] : [];
  });
  expect(
    withZod,
    "a page's code imports a schema: move it to <area>.schemas.ts (docs/architecture.md)",
  ).toEqual([]);
});

// A customer's page loads none of the code only the admin's pages use (the product editor's PHP-rule
// checker, the admin shell, the data table...): vite.config.ts puts it in a layer of its own, and a
// customer page that loaded it would carry some 22 KiB of gzip it never runs.
test("a customer's pages load none of the admin's shared code; the admin's pages do", async ({
  page,
}) => {
  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((entry) => new URL(entry.name).pathname)
        .filter((name) => name.startsWith("/assets/") && name.endsWith(".js")),
    );
  const customer = await registerOverHttp(page);
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  for (const path of ["/dashboard", "/order", "/support/new", "/dashboard/top-up"]) {
    await page.goto(path);
    await waitForHydration(page);
    const loaded = await scripts();
    expect(
      loaded.some((src) => /\/kit-[\w-]+\.js$/.test(src)),
      path,
    ).toBe(true);
    expect(
      loaded.filter((src) => src.includes("/admin-kit-")),
      path,
    ).toEqual([]);
  }

  await page.context().clearCookies();
  expect(await signInOverHttp(page, ADMIN_EMAIL, ADMIN_PASSWORD)).toBe("/admin");
  await page.goto("/admin/clients");
  await waitForHydration(page);
  expect((await scripts()).some((src) => /\/admin-kit-[\w-]+\.js$/.test(src))).toBe(true);
});
