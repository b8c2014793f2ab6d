import { beforeAll, expect, it } from "vitest";
import { registerCustomer, signIn } from "~/domain/accounts/accounts.server";
import { can, type Permission, type StaffRole } from "~/domain/staff/permissions";
import routes from "~/routes";
import { contextFor, cookieHeader, routeArgs, settle } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";
import { staffAccount, staffCookie } from "../support/staff-members";

type RouteModule = {
  loader?: (args: unknown) => unknown;
  action?: (args: unknown) => unknown;
};

// Every file under app/routes/admin, whether or not routes.ts lists it yet, so a new admin page that
// forgets the guard fails here.
const adminModules = import.meta.glob<RouteModule>("/app/routes/admin/**/*.{ts,tsx}");

/**
 * What each admin module's loader and action ask of a member of the staff (null: being one), written
 * out (not read from the modules), with the address it is asked at: the pages to come take their
 * permission from their address. The action's is what a post of an intent no form names asks (the
 * access's "*").
 */
const MODULE_PERMISSIONS: Record<
  string,
  { path: string; loader: Permission | null; action?: Permission | null }
> = {
  "/app/routes/admin/account.tsx": { path: "/admin/account", loader: null, action: null },
  "/app/routes/admin/affiliates.tsx": {
    path: "/admin/affiliates",
    loader: "affiliates.manage",
    action: "affiliates.manage",
  },
  "/app/routes/admin/announcements.tsx": {
    path: "/admin/announcements",
    loader: "announcements.manage",
    action: "announcements.manage",
  },
  "/app/routes/admin/automation.tsx": {
    path: "/admin/automation",
    loader: "automation.run",
    action: "automation.run",
  },
  "/app/routes/admin/canned-replies.tsx": {
    path: "/admin/tickets/replies",
    loader: "tickets.reply",
    action: "tickets.reply",
  },
  "/app/routes/admin/client.tsx": {
    path: "/admin/clients/x",
    loader: "clients.view",
    action: "clients.edit",
  },
  "/app/routes/admin/clients.tsx": {
    path: "/admin/clients",
    loader: "clients.view",
    action: "clients.edit",
  },
  "/app/routes/admin/coming-soon.tsx": { path: "/admin/domains", loader: "products.manage" },
  "/app/routes/admin/contact-messages.tsx": {
    path: "/admin/contact-messages",
    loader: "inbox.manage",
    action: "inbox.manage",
  },
  "/app/routes/admin/dashboard.tsx": { path: "/admin", loader: null },
  "/app/routes/admin/knowledgebase.tsx": {
    path: "/admin/knowledgebase",
    loader: "knowledgebase.manage",
    action: "knowledgebase.manage",
  },
  "/app/routes/admin/discord.tsx": {
    path: "/admin/settings/discord",
    loader: "settings.manage",
    action: "settings.manage",
  },
  "/app/routes/admin/game-panel.tsx": {
    path: "/admin/settings/game-panel",
    loader: "panel.manage",
    action: "panel.manage",
  },
  "/app/routes/admin/email-campaign.tsx": {
    path: "/admin/email-marketing/1",
    loader: "campaigns.manage",
    action: "campaigns.manage",
  },
  "/app/routes/admin/email-marketing.tsx": {
    path: "/admin/email-marketing",
    loader: "campaigns.manage",
    action: "campaigns.manage",
  },
  "/app/routes/admin/gateways.tsx": {
    path: "/admin/gateways",
    loader: "gateways.manage",
    action: "gateways.manage",
  },
  "/app/routes/admin/invoices.tsx": { path: "/admin/invoices", loader: "invoices.view" },
  "/app/routes/admin/layout.tsx": { path: "/admin", loader: null },
  "/app/routes/admin/logs.tsx": { path: "/admin/logs", loader: "logs.view" },
  "/app/routes/admin/mail.tsx": { path: "/admin/mail", loader: "mail.view" },
  "/app/routes/admin/newsletter-csv.ts": { path: "/admin/newsletter.csv", loader: "inbox.manage" },
  "/app/routes/admin/newsletter.tsx": {
    path: "/admin/newsletter",
    loader: "inbox.manage",
    action: "inbox.manage",
  },
  "/app/routes/admin/notifications.tsx": {
    path: "/admin/notifications",
    loader: null,
    action: null,
  },
  "/app/routes/admin/orders.tsx": {
    path: "/admin/orders",
    loader: "orders.view",
    action: "orders.decide",
  },
  "/app/routes/admin/products.tsx": {
    path: "/admin/products",
    loader: "products.manage",
    action: "products.manage",
  },
  "/app/routes/admin/promotions.tsx": {
    path: "/admin/promotions",
    loader: "products.manage",
    action: "products.manage",
  },
  "/app/routes/admin/reports-csv.ts": { path: "/admin/reports.csv", loader: "reports.view" },
  "/app/routes/admin/reports.tsx": { path: "/admin/reports", loader: "reports.view" },
  "/app/routes/admin/search.tsx": { path: "/admin/search", loader: "clients.view" },
  "/app/routes/admin/client-view-as.ts": {
    path: "/admin/clients/nobody/view-as",
    loader: "clients.viewAs",
    action: "clients.viewAs",
  },
  "/app/routes/admin/staff.tsx": {
    path: "/admin/staff",
    loader: "staff.manage",
    action: "staff.manage",
  },
  "/app/routes/admin/security.tsx": {
    path: "/admin/security",
    loader: "settings.manage",
    action: "settings.manage",
  },
  "/app/routes/admin/service-panel-status.ts": {
    path: "/admin/services/1/panel/status",
    loader: "services.view",
  },
  "/app/routes/admin/service-panel.tsx": {
    path: "/admin/services/1/panel",
    loader: "services.view",
    action: "panel.manage",
  },
  "/app/routes/admin/services.tsx": {
    path: "/admin/services",
    loader: "services.view",
    action: "services.manage",
  },
  "/app/routes/admin/settings.tsx": {
    path: "/admin/settings",
    loader: "settings.manage",
    action: "settings.manage",
  },
  "/app/routes/admin/ticket.tsx": {
    path: "/admin/tickets/1",
    loader: "tickets.reply",
    action: "tickets.reply",
  },
  "/app/routes/admin/tickets.tsx": { path: "/admin/tickets", loader: "tickets.reply" },
  "/app/routes/admin/refunds.tsx": {
    path: "/admin/refunds",
    loader: "invoices.refund",
    action: "invoices.refund",
  },
  "/app/routes/admin/top-ups.tsx": {
    path: "/admin/top-ups",
    loader: "topups.decide",
    action: "topups.decide",
  },
  "/app/routes/admin/transactions.tsx": { path: "/admin/transactions", loader: "invoices.view" },
};

/** The members of the staff the guard is tried with: each role but the owner's, and none. */
const MEMBERS: (StaffRole | null)[] = ["billing", "support", "technician", null];

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

it("says what every admin module's loader and action ask, and nothing of a module that is gone", async () => {
  expect(Object.keys(MODULE_PERMISSIONS).sort()).toEqual(Object.keys(adminModules).sort());
  for (const [file, load] of Object.entries(adminModules)) {
    const module = await load();
    const asked = MODULE_PERMISSIONS[file]!;
    expect("action" in asked, `${file}: its action's permission`).toBe(
      typeof module.action === "function",
    );
  }
});

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

  const members = new Map<StaffRole | null, string>();
  beforeAll(async () => {
    for (const [index, role] of MEMBERS.entries())
      members.set(
        role,
        await staffCookie(app(), await staffAccount(app(), role), `10.9.250.${index + 1}`),
      );
  });

  for (const [file, load] of Object.entries(adminModules)) {
    it(`${file}: refuses with a 403 each member of the staff whose role lacks its permission`, async () => {
      const module = await load();
      const asked = MODULE_PERMISSIONS[file];
      expect(asked, `${file}: add it to MODULE_PERMISSIONS`).toBeDefined();
      let tried = 0;
      for (const name of ["loader", "action"] as const) {
        const permission = asked![name];
        if (typeof module[name] !== "function" || !permission) continue;
        for (const role of MEMBERS.filter((member) => !can(member, permission))) {
          const method = name === "loader" ? "GET" : "POST";
          const refused = await settle(async () =>
            module[name]!(
              routeArgs({
                request: new Request(`http://localhost${asked!.path}`, {
                  method,
                  ...(method === "POST" ? { body: new URLSearchParams({ intent: "x" }) } : {}),
                }),
                context: await contextFor(app(), { cookie: members.get(role)! }),
                params: { id: "1", number: "1" },
              }),
            ),
          );
          expect(refused, `${name} as ${role ?? "a member without a role"}`).toMatchObject({
            data: { refused: "permission", permission, role },
            init: { status: 403 },
          });
          tried++;
        }
      }
      // A page every member may use is let through (it is tried in the matrix); any other is refused
      // to somebody here, since only the owner holds every permission.
      const asksSome = [asked!.loader, asked!.action].some(
        (permission) => permission !== null && permission !== undefined,
      );
      expect(tried > 0, `${file}: refused to someone`).toBe(asksSome);
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
