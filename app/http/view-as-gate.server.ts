import type { RouterContextProvider, MiddlewareFunction } from "react-router";
import { data } from "react-router";
import type { RequestContext } from "~/context.server";
import { VIEW_AS_LEAVE_PATH, type ViewAsRefusal } from "~/domain/staff/view-as";
import { readOnlyDatabase } from "~/domain/staff/read-only-database.server";

/**
 * The read-only rule of viewing the site as a customer (ADR 57), in one place every route passes: the
 * root route's middleware, which React Router runs before any loader or action of every route it
 * matches (pages, their data requests, resource routes), in the server and in the tests' harness alike.
 * A route added later is a child of the root and cannot step around it.
 *
 * While a staff session views a customer:
 * - a post (POST, PUT, PATCH, DELETE) to anything but leaving the view or signing out is refused with
 *   403 before any action runs: the root's error boundary says that nothing was changed;
 * - every other request gets a database that refuses to write, so a page that writes as it is read (a
 *   server's state asked for again, a saved language, a verification link) is answered with the same
 *   403 instead of changing the customer's data. The pages that write as they are read skip it while
 *   viewing; this is the net under them.
 *
 * The patterns are React Router's matched route patterns, so every spelling of a URL that reaches these
 * routes (`/logout.data`, `/Logout`, `/%6Cogout`) is the same route here.
 */
const OPEN_PATTERNS = new Set([VIEW_AS_LEAVE_PATH, "/logout"]);

const MUTATION_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The root route's middleware (see above). The route hands over how the request's context is read and
 * replaced (app/context.server.ts): this layer sees only its type.
 */
export function viewAsGate(
  read: (context: Readonly<RouterContextProvider>) => RequestContext,
  replace: (provider: Readonly<RouterContextProvider>, context: RequestContext) => void,
): MiddlewareFunction<Response> {
  return async ({ request, pattern, context: routerContext }, next) => {
    const context = read(routerContext);
    const session = context.session;
    if (!session?.viewer) return next();
    // React Router joins its matches' own paths: "logout", "view-as/leave" (the root's path is empty).
    if (OPEN_PATTERNS.has(`/${pattern.replace(/^\/+/, "")}`)) return next();
    const refusal = () =>
      data(
        {
          refused: "viewAs",
          name: session.user.name,
          email: session.user.email,
        } satisfies ViewAsRefusal,
        { status: 403 },
      );
    if (MUTATION_METHODS.has(request.method.toUpperCase())) throw refusal();
    // A page that would write as it is read (a provider's return link, a verification link) gets the
    // same 403 page rather than an error.
    replace(routerContext, {
      ...context,
      services: { ...context.services, db: readOnlyDatabase(context.services.db, refusal) },
    });
    return next();
  };
}
