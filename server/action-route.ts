import { matchRoutes, type RouteMatch, type RouteObject, type ServerBuild } from "react-router";
import { perInstance } from "../app/lib/instance-cache";

/**
 * Which route's action React Router will run for a request, worked out the way React Router itself
 * does it (react-router 7.18: getNormalizedPath, matchRoutes, getTargetMatch, resource routes), so a
 * limit keyed by route holds for every spelling of a URL: `/contact`, `/contact.data`, `/contact/`,
 * `/Contact`, `/%63ontact`, `/x/../contact` and whatever else reaches the same action. A limit keyed by
 * an Express mount path is skipped by all but the first.
 */

/** The methods React Router runs an action for (its isMutationMethod); GET and HEAD run loaders. */
const MUTATION_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isMutationMethod(method: string): boolean {
  return MUTATION_METHODS.has(method.toUpperCase());
}

type BuildRoutes = ServerBuild["routes"];

interface TreeRoute {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: TreeRoute[];
}

const trees = new WeakMap<BuildRoutes, TreeRoute[]>();

/** The build's flat route table as the nested tree matchRoutes takes (React Router's createRoutes). */
function routeTree(routes: BuildRoutes): TreeRoute[] {
  let tree = trees.get(routes);
  if (tree) return tree;
  const children = (parentId: string | undefined): TreeRoute[] =>
    Object.values(routes)
      .filter((route) => route !== undefined && route.parentId === parentId)
      .map((route) => {
        const node = {
          id: route!.id,
          path: route!.path,
          caseSensitive: route!.caseSensitive,
        };
        return route!.index ? { ...node, index: true } : { ...node, children: children(route!.id) };
      });
  tree = children(undefined);
  trees.set(routes, tree);
  return tree;
}

/**
 * The paths whose matches are kept, per build. React Router's matchRoutes flattens and ranks the whole
 * route table on every call (its own handler passes them precomputed, which its public API does not
 * offer): about 0.4 ms on the app's 78 routes, some tenth of an order's CPU, asked on every POST. The
 * paths a site is posted to are few; an odd or long one is matched every time, and the oldest kept path
 * makes room for a new one.
 */
const KEPT_PATHS = 500;
const KEPT_PATH_LENGTH = 256;
const keptMatches = new WeakMap<BuildRoutes, Map<string, RouteMatch[] | null>>();

function matchesOf(routes: BuildRoutes, pathname: string, basename: string): RouteMatch[] | null {
  const match = () => matchRoutes(routeTree(routes) as RouteObject[], pathname, basename);
  if (pathname.length > KEPT_PATH_LENGTH) return match();
  const matches = perInstance(keptMatches, routes, `${basename} ${pathname}`, match);
  const kept = keptMatches.get(routes)!;
  if (kept.size > KEPT_PATHS) kept.delete(kept.keys().next().value!);
  return matches;
}

/**
 * React Router's getNormalizedPath: the page a data URL belongs to (`/x.data` → `/x`, `/_.data` → `/`,
 * `/x/_.data` → `/x/`).
 */
function normalizedPath(pathname: string): string {
  return pathname.endsWith("/_.data")
    ? pathname.replace(/_\.data$/, "")
    : pathname.replace(/\.data$/, "");
}

/**
 * The id of the route whose action a request runs, or null when it runs none: a GET or HEAD, a URL no
 * route matches, or a URL React Router cannot parse (it answers those itself without running an action).
 * The route may still have no action (React Router then answers 405).
 *
 * `originalUrl` is the request's path and query as Express received it (`req.originalUrl`); the URL is
 * built from it exactly as @react-router/express does, so `//x` and `..` segments resolve the same way.
 */
export function actionRouteId(
  build: Pick<ServerBuild, "routes" | "basename">,
  request: { method: string; originalUrl: string },
): string | null {
  if (!isMutationMethod(request.method)) return null;
  let url: URL;
  try {
    url = new URL("http://localhost" + request.originalUrl);
  } catch {
    return null;
  }
  const data = url.pathname.endsWith(".data");
  const pathname = normalizedPath(url.pathname);
  const matches = matchesOf(build.routes, pathname, build.basename ?? "/");
  if (!matches || matches.length === 0) return null;
  const last = matches[matches.length - 1]!;
  const lastModule = build.routes[last.route.id as string]?.module;
  // A document request to a route without a component or boundary is a resource request: React Router
  // runs the last match's action (handleResourceRequest).
  if (!data && lastModule && lastModule.default == null && lastModule.ErrorBoundary == null)
    return last.route.id as string;
  // Otherwise React Router's getTargetMatch: the index route when asked for with a bare ?index, else the
  // deepest route that has a path of its own.
  const search = new URLSearchParams(url.search);
  if (last.route.index && search.getAll("index").some((value) => value === ""))
    return last.route.id as string;
  const withPath = matches.filter(
    (match, index) => index === 0 || (match.route.path && match.route.path.length > 0),
  );
  return (withPath[withPath.length - 1]?.route.id as string | undefined) ?? null;
}
