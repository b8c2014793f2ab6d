import { describe, expect, it } from "vitest";
import { COMING_SOON_PATHS } from "./admin-pages";
import { ADMIN_NAV, adminNavFor, navItemForPath } from "./admin-nav";

// Each role's menu written out (not derived from ROLE_PERMISSIONS): a page shown to a role that may not
// use it, or hidden from one that may, fails here. Every member of the staff, a role or none, has the
// dashboard and their notifications.
const EVERY_MEMBER = ["/admin", "/admin/notifications"];

const MENUS = {
  owner: ADMIN_NAV.flatMap((group) => group.items.map((item) => item.path)),
  billing: [
    ...EVERY_MEMBER,
    "/admin/clients",
    "/admin/client-groups",
    "/admin/users",
    "/admin/orders",
    "/admin/top-ups",
    "/admin/refunds",
    "/admin/invoices",
    "/admin/quotes",
    "/admin/transactions",
    "/admin/services",
    "/admin/affiliates",
    "/admin/reports",
    "/admin/analytics",
  ],
  support: [
    ...EVERY_MEMBER,
    "/admin/clients",
    "/admin/client-groups",
    "/admin/users",
    "/admin/orders",
    "/admin/invoices",
    "/admin/quotes",
    "/admin/transactions",
    "/admin/services",
    "/admin/tickets",
    "/admin/tickets/replies",
    "/admin/knowledgebase",
    "/admin/chat",
    "/admin/contact-messages",
    "/admin/newsletter",
    "/admin/mail",
  ],
  technician: [...EVERY_MEMBER, "/admin/services", "/admin/automation"],
  none: EVERY_MEMBER,
} as const;

const pathsOf = (menu: ReturnType<typeof adminNavFor>) =>
  menu.flatMap((group) => group.items.map((item) => item.path));

describe("adminNavFor", () => {
  it("shows each role exactly the pages its permissions allow, in the menu's order", () => {
    for (const role of ["owner", "billing", "support", "technician"] as const)
      expect(pathsOf(adminNavFor(role)), role).toEqual(MENUS[role]);
  });

  it("shows a member without a role the dashboard and their notifications only", () => {
    expect(pathsOf(adminNavFor(null))).toEqual(MENUS.none);
  });

  it("shows the owner every page of the menu, groups included", () => {
    expect(adminNavFor("owner").map((group) => group.label)).toEqual(
      ADMIN_NAV.map((group) => group.label),
    );
    expect(MENUS.owner.length).toBeGreaterThan(30);
  });

  it("leaves out the groups a role has nothing in", () => {
    expect(adminNavFor("technician").map((group) => group.label)).toEqual([
      "groups.main",
      "groups.productsServices",
      "groups.system",
    ]);
    expect(adminNavFor(null).map((group) => group.label)).toEqual(["groups.main"]);
    for (const role of ["owner", "billing", "support", "technician", null] as const)
      for (const group of adminNavFor(role)) expect(group.items.length).toBeGreaterThan(0);
  });
});

describe("navItemForPath", () => {
  it("finds each coming-soon page's item, whose permission its page asks", () => {
    for (const path of COMING_SOON_PATHS) {
      const item = navItemForPath(`/admin/${path}`);
      expect(item?.path, path).toBe(`/admin/${path}`);
      expect(item?.permission, path).not.toBeNull();
    }
  });

  it("finds a page's item under its own path and with a trailing slash, the dashboard only at /admin", () => {
    expect(navItemForPath("/admin/tickets/12")?.path).toBe("/admin/tickets");
    // Under the tickets' path, the canned replies are an item of their own.
    expect(navItemForPath("/admin/tickets/replies")?.path).toBe("/admin/tickets/replies");
    expect(navItemForPath("/admin/settings/game-panel")?.path).toBe("/admin/settings");
    expect(navItemForPath("/admin/logs/")?.path).toBe("/admin/logs");
    expect(navItemForPath("/admin/")?.path).toBe("/admin");
    expect(navItemForPath("/admin/no-such-page")).toBeUndefined();
  });
});
