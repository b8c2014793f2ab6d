import { expect, test } from "@playwright/test";
import {
  ADMIN_PASSWORD,
  AUTH_SECRET,
  registerCustomer,
  submitLogin,
  USER_PASSWORD,
} from "./fixtures";

// No password, hash, secret or session token may reach a page, a response body or the client bundle.
test("pages and the client bundle carry no secrets", async ({ page, request }) => {
  const customer = await registerCustomer(page);
  await submitLogin(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/dashboard/);
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
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((entry) => entry.name)
      .filter((name) => name.endsWith(".js")),
  );
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) {
    const body = await (await request.get(src)).text();
    for (const secret of forbidden)
      expect(body, `${src} must not contain a secret`).not.toContain(secret);
    expect(body).not.toContain("common-passwords");
  }
});
