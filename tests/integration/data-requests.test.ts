import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { appFetch, dataUrl } from "../support/app-harness";
import { cookieHeader } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// React Router 8 (ADR 18) gives a loader the browser's raw data request (/dashboard.data
// ?_routes=...); it reads the page's address from its `url` argument. These requests are the ones a
// signed-in browser makes when it follows a link: what they answer must name the page, never its data URL.
describeEachDatabase("data requests", (app) => {
  it("sends a visitor to /login with the page to come back to, not its data URL", async () => {
    const response = await appFetch(app())(
      `${dataUrl("/dashboard")}?tab=billing&_routes=root%2Croutes%2Fdashboard%2Flayout%2Croutes%2Fdashboard%2Foverview`,
    );
    const body = await response.text();
    expect(response.status, body).toBe(202);
    expect(body).toContain(`/login?redirectTo=${encodeURIComponent("/dashboard?tab=billing")}`);
    expect(body).not.toContain(".data");
  });

  it("answers a list page's data request with its query read from the page's address", async () => {
    const signedIn = await signIn(app(), TEST_ADMIN, { ip: "10.62.0.1" });
    if (!signedIn.ok) throw new Error("sign-in failed");
    const cookie = cookieHeader(signedIn.setCookies);
    const response = await appFetch(app())(
      `${dataUrl("/admin/clients")}?q=nobody-matches-this&_routes=routes%2Fadmin%2Fclients`,
      { cookie },
    );
    const body = await response.text();
    expect(response.status, body).toBe(200);
    expect(body).toContain("nobody-matches-this");
    expect(body).not.toContain("_routes");
  });
});
