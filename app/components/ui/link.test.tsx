import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  Link as RouterLink,
  NavLink as RouterNavLink,
  Outlet,
  StaticRouterProvider,
  type LinkProps,
  type NavLinkProps,
} from "react-router";
import { describe, expect, it } from "vitest";
import { plainPath, ServerLink, ServerNavLink } from "./link";

/** `node` rendered by the server at `url`, inside a layout and a child route (so the page has matches). */
async function renderAt(url: string, node: () => ReactNode, basename?: string) {
  const Page = () => <nav>{node()}</nav>;
  const routes = [
    {
      path: "/",
      Component: Outlet,
      children: [
        { index: true, Component: Page },
        { path: "*", Component: Page },
      ],
    },
  ];
  const handler = createStaticHandler(routes, { basename });
  const context = await handler.query(new Request(`http://shop.test${url}`));
  if (context instanceof Response) throw new Error(`no page at ${url}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToStaticMarkup(
    <StaticRouterProvider router={router} context={context} hydrate={false} />,
  );
  // Something was drawn: a page without the link would compare equal to another without it.
  expect(html).toMatch(/^<nav><a [^>]*>/);
  return html;
}

const TARGETS = [
  "/",
  "/dashboard",
  "/dashboard?tab=billing",
  "/dashboard?tab=billing#coins",
  "/admin/clients/",
  "/invoices/HF-2026-000001.pdf",
  "/services/samp?lang=fr",
  // Rewritten by the router: React Router's own link writes them.
  "/dashboard?",
  "/dashboard#",
  "/a//b",
  "/a/./b",
  "/a/../b",
  "/a/b/..",
  "//evil.example/x",
  "/a\\b",
  "/a b",
  "dashboard",
  "../up",
  "",
  "https://panel.example/x",
  "mailto:support@example.com",
];

const LINK_PROPS: Partial<LinkProps>[] = [
  {},
  { className: "text-primary", dir: "auto", title: "Open" },
  { target: "_blank", rel: "noreferrer" },
  { onClick: () => {}, replace: true, state: { from: "x" }, preventScrollReset: true },
  { discover: "none" },
  { prefetch: "intent" },
  { reloadDocument: true },
  { relative: "path" },
  { "aria-label": "Billing", id: "billing-link", role: "button" },
];

describe("the kit's Link on the server", () => {
  it("writes exactly what React Router's writes, for every kind of target and prop", async () => {
    for (const url of ["/", "/dashboard", "/admin/clients/42"]) {
      for (const to of TARGETS) {
        for (const props of LINK_PROPS) {
          const theirs = await renderAt(url, () => (
            <RouterLink to={to} {...props}>
              Go
            </RouterLink>
          ));
          const ours = await renderAt(url, () => (
            <ServerLink to={to} {...props}>
              Go
            </ServerLink>
          ));
          expect(ours, `${url} ${to} ${JSON.stringify(props)}`).toBe(theirs);
        }
      }
    }
  });

  it("leaves a router with a basename to React Router's own", async () => {
    const theirs = await renderAt(
      "/shop/dashboard",
      () => <RouterLink to="/dashboard">Go</RouterLink>,
      "/shop",
    );
    const ours = await renderAt(
      "/shop/dashboard",
      () => <ServerLink to="/dashboard">Go</ServerLink>,
      "/shop",
    );
    expect(theirs).toContain('href="/shop/dashboard"');
    expect(ours).toBe(theirs);
  });

  it("takes the short way only for plain absolute paths", () => {
    expect(plainPath("/dashboard?tab=billing#x")).toBe(true);
    expect(plainPath("/")).toBe(true);
    for (const to of ["/a//b", "/a/./b", "/x/..", "/d?", "/d#", "dashboard", "//x", "/a b", ""])
      expect(plainPath(to), to).toBe(false);
    expect(plainPath({ pathname: "/dashboard" })).toBe(false);
    // Linear on a long path that fails at its end (no backtracking): a pattern that backtracked would
    // take a million times a million steps on it, and never answer before the test's time limit.
    expect(plainPath(`/${"a".repeat(1_000_000)} `)).toBe(false);
  });
});

const NAV_PROPS: Partial<NavLinkProps>[] = [
  {},
  { end: true },
  { className: "nav" },
  { className: ({ isActive }) => (isActive ? "on" : "off"), end: true },
  { style: ({ isActive }) => ({ fontWeight: isActive ? 700 : 400 }) },
  { caseSensitive: true },
  { "aria-current": "step", title: "Clients" },
  { viewTransition: true },
];

describe("the kit's NavLink on the server", () => {
  it("writes exactly what React Router's writes, active or not", async () => {
    const targets = [
      "/",
      "/admin",
      "/admin/clients",
      "/admin/clients/",
      "/Admin/Clients",
      "/admin/client",
      "/dashboard?tab=billing",
      "/admin/../x",
    ];
    for (const url of [
      "/",
      "/admin",
      "/admin/clients",
      "/admin/clients/42",
      "/admin/clientsx",
      "/ADMIN/Clients",
      "/dashboard",
    ]) {
      for (const to of targets) {
        for (const props of NAV_PROPS) {
          const children = ({ isActive }: { isActive: boolean }) => (isActive ? "Here" : "There");
          const theirs = await renderAt(url, () => (
            <>
              <RouterNavLink to={to} {...props}>
                Go
              </RouterNavLink>
              <RouterNavLink to={to} {...props}>
                {children}
              </RouterNavLink>
            </>
          ));
          const ours = await renderAt(url, () => (
            <>
              <ServerNavLink to={to} {...props}>
                Go
              </ServerNavLink>
              <ServerNavLink to={to} {...props}>
                {children}
              </ServerNavLink>
            </>
          ));
          expect(ours, `${url} ${to} ${JSON.stringify(props)}`).toBe(theirs);
        }
      }
    }
  });
});
