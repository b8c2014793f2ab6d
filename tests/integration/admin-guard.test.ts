import { expect, it } from "vitest";
import { registerCustomer, signIn } from "~/domain/accounts/accounts.server";
import routes from "~/routes";
import { contextFor, cookieHeader, routeArgs, settle } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type RouteModule = {
  loader?: (args: unknown) => unknown;
  action?: (args: unknown) => unknown;
};

// Every file under app/routes/admin, whether or not routes.ts lists it yet, so a new admin page that
// forgets the guard fails here.
const adminModules = import.meta.glob<RouteModule>("/app/routes/admin/**/*.{ts,tsx}");

interface RouteEntry {
  path?: string;
  file: string;
  children?: RouteEntry[];
}

function flatten(entries: RouteEntry[], parent = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, "/") : parent;
    return [{ path, file: entry.file }, ...flatten(entry.children ?? [], path)];
  });
}

it("finds the admin route modules, and every route under /admin lives in app/routes/admin", () => {
  expect(Object.keys(adminModules).length).toBeGreaterThan(0);
  const underAdmin = flatten(routes as RouteEntry[]).filter((r) => r.path.startsWith("/admin"));
  expect(underAdmin.length).toBeGreaterThan(0);
  for (const route of underAdmin) expect(route.file).toMatch(/^routes\/admin\//);
});

describeEachDatabase("admin guard", (app) => {
  let guardSignIns = 0;
  async function sessionCookie(role: "user" | "admin") {
    const services = app();
    if (role === "admin") {
      const result = await signIn(
        services,
        { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
        { ip: "10.9.0.1" },
      );
      if (!result.ok) throw new Error("admin sign in failed");
      return cookieHeader(result.setCookies);
    }
    const email = `guard${Date.now()}${Math.random().toString(36).slice(2)}@example.com`;
    await registerCustomer(
      services,
      { name: "Guard", email, password: "Guard-pw-4411", confirmPassword: "Guard-pw-4411" },
      { registrationOpen: true },
    );
    // One customer per admin module, each from its own address: together they would pass the login
    // throttle's limit for one address, which is not what this test is about.
    const ip = `10.9.${Math.floor(guardSignIns / 250)}.${(guardSignIns++ % 250) + 2}`;
    const result = await signIn(services, { email, password: "Guard-pw-4411" }, { ip });
    if (!result.ok) throw new Error("customer sign in failed");
    return cookieHeader(result.setCookies);
  }

  for (const [file, load] of Object.entries(adminModules)) {
    it(`${file}: refuses anonymous visitors and customers in its loader and action`, async () => {
      const module = await load();
      const handlers = (["loader", "action"] as const).filter(
        (name) => typeof module[name] === "function",
      );
      expect(handlers.length).toBeGreaterThan(0);
      const customer = await sessionCookie("user");

      for (const name of handlers) {
        const method = name === "loader" ? "GET" : "POST";
        const request = () =>
          new Request("http://localhost/admin/some-page", {
            method,
            ...(method === "POST" ? { body: new URLSearchParams({ intent: "x" }) } : {}),
          });

        const anonymous = await settle(async () =>
          module[name]!(routeArgs({ request: request(), context: await contextFor(app()) })),
        );
        expect(anonymous, `${name} as anonymous`).toBeInstanceOf(Response);
        expect((anonymous as Response).status).toBe(302);
        expect((anonymous as Response).headers.get("location")).toMatch(/^\/login\?redirectTo=/);

        const asCustomer = await settle(async () =>
          module[name]!(
            routeArgs({
              request: request(),
              context: await contextFor(app(), { cookie: customer }),
            }),
          ),
        );
        expect(asCustomer, `${name} as customer`).toBeInstanceOf(Response);
        expect((asCustomer as Response).status).toBe(302);
        expect((asCustomer as Response).headers.get("location")).toBe("/");
      }
    });
  }

  it("lets an admin through", async () => {
    const admin = await sessionCookie("admin");
    const module = await adminModules["/app/routes/admin/dashboard.tsx"]!();
    const result = await module.loader!(
      routeArgs({
        request: new Request("http://localhost/admin"),
        context: await contextFor(app(), { cookie: admin }),
      }),
    );
    expect(result).toMatchObject({ email: TEST_ADMIN.email });
  });
});
