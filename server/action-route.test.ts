import type * as ReactRouter from "react-router";
import type { ServerBuild } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { actionRouteId } from "./action-route";
import { MAX_NOTIFICATION_BYTES } from "~/domain/payments/providers/provider";
import { bodyKindOf, bodyLimitOf, PUBLIC_FORMS } from "./request-limits";

const LIMITS = {
  FORM_RATE_LIMIT_PER_MINUTE: 5,
  BODY_LIMIT_PUBLIC: 1,
  BODY_LIMIT_CUSTOMER: 2,
  BODY_LIMIT_ADMIN: 3,
  BODY_LIMIT_UPLOAD: 4,
};

// React Router's own matchRoutes, with each path it is asked to match written down.
const matched = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock("react-router", async (importOriginal) => {
  const actual = await importOriginal<typeof ReactRouter>();
  return {
    ...actual,
    matchRoutes: (...args: Parameters<typeof actual.matchRoutes>) => {
      matched.paths.push(String(args[1]));
      return actual.matchRoutes(...args);
    },
  };
});

// A route table shaped like the app's (app/routes.ts as the build lists it): a pathless site layout
// with an index page, pages with actions, a catch-all, resource routes at the top level, and the admin
// panel's routes under the "admin" prefix inside a pathless layout.
const page = { default: () => null, action: () => null };
const view = { default: () => null };
const resource = { action: () => null };
const table: [id: string, parentId: string | undefined, fields: object, module: object][] = [
  ["root", undefined, { path: "" }, view],
  ["routes/site-layout", "root", {}, view],
  ["routes/home", "routes/site-layout", { index: true }, view],
  ["routes/site/contact", "routes/site-layout", { path: "contact" }, page],
  ["routes/login", "routes/site-layout", { path: "login" }, page],
  ["routes/support/ticket", "routes/site-layout", { path: "support/:id" }, page],
  ["routes/not-found", "routes/site-layout", { path: "*" }, view],
  ["routes/site/newsletter", "root", { path: "newsletter" }, resource],
  ["routes/hooks/payments", "root", { path: "hooks/payments/:provider" }, resource],
  ["routes/logout", "root", { path: "logout" }, resource],
  ["routes/admin/layout", "root", {}, view],
  ["routes/admin/dashboard", "routes/admin/layout", { index: true, path: "admin" }, page],
  ["admin-users", "routes/admin/layout", { path: "admin/users" }, page],
  ["routes/admin/settings", "routes/admin/layout", { path: "admin/settings" }, page],
];
const routes = Object.fromEntries(
  table.map(([id, parentId, fields, module]) => [id, { id, parentId, ...fields, module }]),
) as unknown as ServerBuild["routes"];
const build = { routes, basename: "/" };

const target = (originalUrl: string, method = "POST") =>
  actionRouteId(build, { method, originalUrl });

describe("the route whose action a request runs", () => {
  it("is the same for every spelling React Router accepts", () => {
    for (const url of [
      "/contact",
      "/contact.data",
      "/contact/",
      "/contact.data?_routes=routes%2Fsite%2Fcontact",
      "/Contact",
      "/CONTACT.data",
      "/%63ontact",
      "/%63%6F%6E%74%61%63%74.data",
      "/x/../contact",
      "/./contact",
      "/%2e/contact",
      "/contact?index",
      "/contact?lang=fr",
    ])
      expect(target(url), url).toBe("routes/site/contact");
  });

  it("matches a path once and keeps the answer, for a bounded number of paths", () => {
    matched.paths.length = 0;
    expect(target("/support/77041")).toBe("routes/support/ticket");
    expect(target("/support/77041.data")).toBe("routes/support/ticket");
    expect(target("/support/77041/")).toBe("routes/support/ticket");
    expect(target("/nowhere/77041/deeper")).toBe("routes/not-found");
    expect(target("/nowhere/77041/deeper")).toBe("routes/not-found");
    // A trailing slash is a path of its own for React Router 8 (a data request keeps it: /x/_.data).
    expect(matched.paths).toEqual(["/support/77041", "/support/77041/", "/nowhere/77041/deeper"]);
    // Past as many paths as are kept, the first is forgotten and matched again, still rightly.
    for (let i = 0; i < 600; i++) expect(target(`/support/${i}`)).toBe("routes/support/ticket");
    matched.paths.length = 0;
    expect(target("/support/599")).toBe("routes/support/ticket");
    expect(matched.paths).toEqual([]);
    expect(target("/support/77041.data")).toBe("routes/support/ticket");
    expect(matched.paths).toEqual(["/support/77041"]);
    // A long path is not kept: a client cannot fill the memory with long URLs.
    const long = `/support/${"7".repeat(300)}`;
    matched.paths.length = 0;
    expect(target(long)).toBe("routes/support/ticket");
    expect(target(long)).toBe("routes/support/ticket");
    expect(matched.paths).toEqual([long, long]);
  });

  it("runs for every method React Router runs an action for, and for no other", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"])
      expect(target("/contact.data", method)).toBe("routes/site/contact");
    for (const method of ["GET", "HEAD", "OPTIONS"]) expect(target("/contact", method)).toBeNull();
  });

  it("finds resource routes, with or without .data", () => {
    expect(target("/newsletter")).toBe("routes/site/newsletter");
    expect(target("/newsletter.data")).toBe("routes/site/newsletter");
    expect(target("/Logout/")).toBe("routes/logout");
  });

  it("reads React Router's trailing-slash-aware data URLs (ADR 18)", () => {
    const run = (originalUrl: string) => actionRouteId(build, { method: "POST", originalUrl });
    expect(run("/_.data")).toBe("root");
    expect(run("/_.data?index")).toBe("routes/home");
    expect(run("/contact.data")).toBe("routes/site/contact");
    expect(run("/contact/_.data")).toBe("routes/site/contact");
    expect(run("/newsletter/_.data")).toBe("routes/site/newsletter");
  });

  it("follows React Router for the root, index routes and URLs no page has", () => {
    expect(target("/")).toBe("root");
    expect(target("/?index")).toBe("routes/home");
    expect(target("/_.data?index")).toBe("routes/home");
    expect(target("/support/12.data")).toBe("routes/support/ticket");
    // Not the contact form: React Router answers these from the catch-all (404/405).
    for (const url of [
      "//contact",
      "/contact.data/",
      "/contact%2Edata",
      "/contactx",
      // React Router 7's data URL of the home page: a page no route has for React Router 8.
      "/_root.data",
      "/contact%2F",
    ])
      expect(target(url), url).toBe("routes/not-found");
    expect(target("/%E0%A4%A")).toBe("routes/not-found");
  });

  it("gives each route its body limit: public forms, the client area, the admin panel", () => {
    expect(bodyKindOf(routes, null)).toBe("public");
    // No action runs there (React Router answers 405): nothing is owed more than the smallest limit.
    expect(bodyKindOf(routes, "routes/home")).toBe("public");
    expect(bodyKindOf(routes, "routes/site/contact")).toBe("public");
    expect(bodyKindOf(routes, "routes/support/ticket")).toBe("customer");
    expect(bodyKindOf(routes, "admin-users")).toBe("admin");
    expect(bodyKindOf(routes, target("/ADMIN/settings.data"))).toBe("admin");
    expect(bodyKindOf(routes, target("/admin?index"))).toBe("admin");
    expect(Object.keys(PUBLIC_FORMS)).toContain("routes/site/contact");
    // A payment provider's notification: capped at what a notification may weigh (64 KiB).
    expect(bodyKindOf(routes, target("/hooks/payments/paypal"))).toBe("webhook");
    expect(bodyLimitOf("webhook", LIMITS)).toBe(MAX_NOTIFICATION_BYTES);
  });
});
