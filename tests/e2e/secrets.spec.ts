import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import {
  ADMIN_PASSWORD,
  AUTH_SECRET,
  registerOverHttp,
  signInOverHttp,
  USER_PASSWORD,
  expect,
  test,
} from "./fixtures";

// No password, hash, secret or session token may reach a page, a response body or the client bundle.
test("pages and the client bundle carry no secrets", async ({ page }) => {
  const customer = await registerOverHttp(page);
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  const cookies = await page.context().cookies();
  const token = cookies.find((c) => c.name.endsWith("session_token"));
  expect(token?.httpOnly).toBe(true);
  expect(token?.sameSite).toBe("Lax");

  const forbidden = [
    ADMIN_PASSWORD,
    AUTH_SECRET,
    USER_PASSWORD,
    "$argon2id$",
    token!.value.split(".")[0]!,
  ];
  for (const path of ["/dashboard", "/dashboard?tab=account", "/order", "/"]) {
    await page.goto(path);
    const html = await page.content();
    for (const secret of forbidden)
      expect(html, `${path} must not contain a secret`).not.toContain(secret);
  }
  // Every file of the client build the server is running (BUILD_DIR, as playwright.config.ts starts it),
  // whether a page loaded it or not: a chunk of a page this test never visits is served to anyone too.
  const client = join(process.env.BUILD_DIR ?? "build", "client");
  const files = readdirSync(client, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(client, join(entry.parentPath, entry.name)));
  // The pages above loaded scripts from this build: the folder scanned is the one being served.
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name).pathname)
      .filter((name) => name.endsWith(".js")),
  );
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) expect(files).toContain(src.slice(1));
  expect(files.filter((file) => file.endsWith(".js")).length).toBeGreaterThan(scripts.length);

  for (const file of files) {
    // latin1 keeps every byte as one character: an ASCII secret is found in any file, text or not.
    const body = readFileSync(join(client, file), "latin1");
    for (const secret of forbidden)
      expect(body, `${file} must not contain a secret`).not.toContain(secret);
    expect(body, `${file} must not carry the common-password list`).not.toContain(
      "common-passwords",
    );
  }
});
