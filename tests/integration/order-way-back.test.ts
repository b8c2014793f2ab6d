import { expect, it } from "vitest";
import * as register from "~/routes/register";
import { appFetch } from "../support/app-harness";
import { contextFor, formRequest, routeArgs, settle } from "../support/request-context";
import { describeEachDatabase } from "../support/test-database";

// A visitor who registers from the order form comes back to it, with what they chose.
const ORDER = "/order?product=2&billingCycle=quarterly&playerSlots=100&serverName=Rachid+RP";
const BACK = encodeURIComponent(ORDER);

let n = 0;
const email = () => `way-back${Date.now()}${n++}@example.com`;

describeEachDatabase("the way back to an order through registration and login", (app) => {
  async function registerAt(path: string) {
    return settle(async () =>
      register.action(
        routeArgs({
          request: formRequest(path, {
            name: "Rachid",
            email: email(),
            password: "Rachid-pw-8842",
            confirmPassword: "Rachid-pw-8842",
          }),
          context: await contextFor(app()),
          params: {},
        }),
      ),
    ) as Promise<Response>;
  }

  it("registering leads to the login page that leads back to the order", async () => {
    const registered = await registerAt(`/register?redirectTo=${BACK}`);
    expect(registered.status).toBe(302);
    expect(registered.headers.get("location")).toBe(`/login?redirectTo=${BACK}`);
    expect(registered.headers.get("set-cookie")).toContain("toast.registered");
    // Another site, or something that is no path, is dropped: the plain login page.
    for (const evil of ["//evil.example/order", "https://evil.example", "/\\evil.example"]) {
      const refused = await registerAt(`/register?redirectTo=${encodeURIComponent(evil)}`);
      expect(refused.headers.get("location"), evil).toBe("/login");
    }
  });

  it("the login and register pages link each other with the way back", async () => {
    const fetchApp = appFetch(app());
    const loginPage = await (await fetchApp(`/login?redirectTo=${BACK}`)).text();
    expect(loginPage).toContain(`href="/register?redirectTo=${BACK}"`);
    expect(loginPage).toContain(`name="redirectTo" value="${ORDER.replaceAll("&", "&amp;")}"`);
    const registerPage = await (await fetchApp(`/register?redirectTo=${BACK}`)).text();
    expect(registerPage).toContain(`href="/login?redirectTo=${BACK}"`);
    // The form posts to its own address, so the way back goes with it, also without JavaScript.
    expect(registerPage).toContain(`action="/register?redirectTo=${BACK}"`);
    const evil = await (
      await fetchApp(`/login?redirectTo=${encodeURIComponent("//evil.example")}`)
    ).text();
    expect(evil).toContain('href="/register"');
    // (The page's own address, in its language forms, still says what was asked.)
    expect(evil).not.toContain('href="/register?redirectTo=');
    expect(evil).not.toContain('value="//evil.example"');
  });
});
