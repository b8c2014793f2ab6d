import type { NextFunction, Request, Response } from "express";
import type { RequestContext } from "~/context.server";
import { safeRedirect } from "~/domain/accounts/accounts";
import { isWebhookPath } from "./same-origin";

/** Where React Router renders the maintenance page (app/routes/maintenance.tsx). */
export const MAINTENANCE_PATH = "/maintenance";

/**
 * Paths that work for everyone during maintenance: signing in (an admin must get in; a customer who
 * signs in is sent on to a page that is in maintenance), signing out, choosing a language, the page
 * itself and React Router's route manifest (route metadata, no data). /healthz and static files are
 * served before this gate.
 */
const OPEN_PATHS = new Set(["/login", "/logout", "/language", MAINTENANCE_PATH, "/__manifest"]);

export type MaintenanceDecision =
  /** Not affected: the request goes on as usual. */
  | { type: "pass" }
  /**
   * A data request from a page that is already open (a client-side navigation, a form or fetcher
   * submitted with JavaScript): React Router's client is told to load `location` as a whole document,
   * which then gets the maintenance page. Nothing runs.
   */
  | { type: "reload"; location: string }
  /** A document request of any method: answered with the maintenance page, as a GET. Nothing runs. */
  | { type: "render"; url: string };

/**
 * The page a React Router data URL belongs to: /contact.data → /contact, /_.data → / and
 * /contact/_.data → /contact/. React Router 7's /_root.data is still read as / (a page opened before the
 * upgrade may ask for it).
 */
function pagePath(pathname: string): { path: string; data: boolean } {
  if (pathname === "/_root.data") return { path: "/", data: true };
  if (pathname.endsWith("/_.data"))
    return { path: pathname.slice(0, -"_.data".length), data: true };
  if (pathname.endsWith(".data"))
    return { path: pathname.slice(0, -".data".length) || "/", data: true };
  return { path: pathname, data: false };
}

/**
 * What the maintenance switch does to one request. Admins are never stopped, so they keep working
 * everywhere while visitors and customers get the maintenance page (HTTP 503) on every page and form.
 */
export function maintenanceDecision(input: {
  maintenanceMode: boolean;
  isAdmin: boolean;
  /** The request's path and query, as received; the method does not matter. */
  url: string;
}): MaintenanceDecision {
  if (!input.maintenanceMode || input.isAdmin) return { type: "pass" };
  const url = new URL(input.url, "http://localhost");
  const page = pagePath(url.pathname);
  const path = page.path.replace(/(.)\/+$/, "$1");
  const data = page.data;
  if (OPEN_PATHS.has(path)) return { type: "pass" };
  // A provider's notification is answered during maintenance too: one turned away would be retried for
  // days, and the money it tells of is taken already.
  if (isWebhookPath(path)) return { type: "pass" };
  if (data) {
    // React Router's own query parameters (which loaders to run, index routes) mean nothing to a page.
    url.searchParams.delete("_routes");
    url.searchParams.delete("index");
    const search = url.searchParams.size > 0 ? `?${url.searchParams}` : "";
    // The path comes from the request: "/.//evil.example.data" would otherwise send the browser away.
    return { type: "reload", location: safeRedirect(`${path}${search}`, "/") };
  }
  // The query is kept: ?lang=fr still picks (and remembers) the page's language.
  return { type: "render", url: `${MAINTENANCE_PATH}${url.search}` };
}

/**
 * The maintenance gate, mounted just before React Router and after the request context is built (it
 * needs the session's role and the cached settings). See docs/decisions/0012.
 */
export function maintenanceGate(contextOf: (res: Response) => RequestContext) {
  return (req: Request, res: Response, next: NextFunction) => {
    const context = contextOf(res);
    const decision = maintenanceDecision({
      maintenanceMode: context.settings.general.maintenanceMode,
      // A member of the staff viewing the site as a customer is still staff: they pass (the view is
      // read-only), and can leave it.
      isAdmin: (context.session?.viewer ?? context.session?.user)?.role === "admin",
      url: req.originalUrl,
    });
    if (decision.type === "reload") {
      // React Router's client treats a 204 with X-Remix-Redirect as a redirect, and with
      // X-Remix-Reload-Document as one that loads a whole document.
      res
        .status(204)
        .set({
          "X-Remix-Redirect": decision.location,
          "X-Remix-Status": "302",
          "X-Remix-Reload-Document": "true",
          "Cache-Control": "no-store",
        })
        .end();
      return;
    }
    if (decision.type === "render") {
      // Like method-override: React Router sees a GET of the maintenance page, so no action or loader
      // of the page asked for runs, and a form post gets the page too. The body is never read.
      req.method = req.method === "HEAD" ? "HEAD" : "GET";
      req.url = decision.url;
      req.originalUrl = decision.url;
    }
    next();
  };
}
