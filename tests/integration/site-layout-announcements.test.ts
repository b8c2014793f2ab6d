import { describe, expect, it } from "vitest";
import { registerCustomer, signIn } from "~/domain/accounts/accounts.server";
import { showsSiteAnnouncements } from "~/domain/site/site";
import { isPublicPage } from "~/lib/hydration";
import { appFetch, dataUrl, flattenRoutes, routeModule } from "../support/app-harness";
import { cookieHeader } from "../support/request-context";
import { describeEachDatabase } from "../support/test-database";

// The site layout reads the "Everyone" announcements only for the pages that show them, the public ones
// (one query less on every signed-in page). Which pages those are is said twice, by each
// route's handle (what the layout shows) and by showsSiteAnnouncements (what its loader reads).
describe("the site layout's pages", () => {
  const pages = flattenRoutes().filter(
    (route) => route.parentId === "routes/site-layout" && !route.layout,
  );

  it("read the announcements exactly when they show them", async () => {
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) {
      const module = await routeModule(page.file);
      expect(showsSiteAnnouncements(page.pattern), page.pattern).toBe(
        isPublicPage([module.handle]),
      );
    }
  });
});

describeEachDatabase("the site layout's announcements", (app) => {
  it("are sent with a public page and not with a customer's own", async () => {
    const email = `layout${Date.now()}@example.com`;
    await registerCustomer(
      app(),
      { name: "Layout", email, password: "Layout-pw-4411", confirmPassword: "Layout-pw-4411" },
      { registrationOpen: true },
    );
    const signedIn = await signIn(
      app(),
      { email, password: "Layout-pw-4411" },
      { ip: "10.63.0.1" },
    );
    if (!signedIn.ok) throw new Error("sign-in failed");
    const cookie = cookieHeader(signedIn.setCookies);
    const layoutData = async (path: string) => {
      const response = await appFetch(app())(
        `${dataUrl(path)}?_routes=${encodeURIComponent("routes/site-layout")}`,
        { cookie },
      );
      expect(response.status).toBe(200);
      return response.text();
    };
    // The seeded announcement, for everyone.
    expect(await layoutData("/about")).toContain("Welcome to Hostfront");
    expect(await layoutData("/dashboard")).not.toContain("Welcome to Hostfront");
    expect(await layoutData("/support/new")).not.toContain("Welcome to Hostfront");
  });
});
