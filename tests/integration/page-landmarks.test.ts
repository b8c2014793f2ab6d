import { expect, it } from "vitest";
import { registerCustomer, signIn } from "~/domain/accounts/accounts.server";
import { appFetch, flattenRoutes, routeModule } from "../support/app-harness";
import { cookieHeader } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// Every admin page has one <main>: a screen reader's "skip to main content" and landmark list reach the
// page's content on each (/admin/settings/game-panel had none).
describeEachDatabase("admin pages' landmarks", (app) => {
  it("each admin page without a parameter has exactly one main", async () => {
    const signedIn = await signIn(
      app(),
      { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      { ip: "10.64.0.1" },
    );
    if (!signedIn.ok) throw new Error("sign-in failed");
    const cookie = cookieHeader(signedIn.setCookies);
    const pages = [];
    for (const route of flattenRoutes()) {
      if (route.layout || !route.pattern.startsWith("/admin") || /[:*]/.test(route.pattern))
        continue;
      // Pages only: a resource route (a CSV, a search answer) has no component.
      if (!(await routeModule(route.file)).default) continue;
      pages.push(route.pattern);
    }
    expect(pages).toContain("/admin/settings/game-panel");
    expect(pages.length).toBeGreaterThan(20);
    const fetchPage = appFetch(app());
    for (const path of pages) {
      const response = await fetchPage(path, { cookie });
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html.match(/<main[\s>]/g)?.length ?? 0, path).toBe(1);
    }
  });
});

describeEachDatabase("the site's pages' landmarks", (app) => {
  it("each page a customer reaches without a parameter has exactly one main", async () => {
    const email = `landmarks${Date.now()}@example.com`;
    await registerCustomer(
      app(),
      {
        name: "Landmarks",
        email,
        password: "Landmarks-pw-4411",
        confirmPassword: "Landmarks-pw-4411",
      },
      { registrationOpen: true },
    );
    const signedIn = await signIn(
      app(),
      { email, password: "Landmarks-pw-4411" },
      { ip: "10.64.0.2" },
    );
    if (!signedIn.ok) throw new Error("sign-in failed");
    const cookie = cookieHeader(signedIn.setCookies);
    const fetchPage = appFetch(app());
    const checked = [];
    for (const route of flattenRoutes()) {
      if (route.layout || route.pattern.startsWith("/admin") || /[:*]/.test(route.pattern))
        continue;
      if (!(await routeModule(route.file)).default) continue;
      const response = await fetchPage(route.pattern, { cookie });
      // Pages a signed-in customer is sent away from (the login form, the maintenance page).
      if (response.status !== 200) continue;
      const html = await response.text();
      expect(html.match(/<main[\s>]/g)?.length ?? 0, route.pattern).toBe(1);
      checked.push(route.pattern);
    }
    expect(checked).toEqual(
      expect.arrayContaining(["/", "/dashboard", "/order", "/support/new", "/coins"]),
    );
  });
});
