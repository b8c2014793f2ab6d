import {
  createRequestHandler,
  UNSAFE_withComponentProps,
  UNSAFE_withErrorBoundaryProps,
  UNSAFE_withHydrateFallbackProps,
  type ServerBuild,
} from "react-router";
import { createRequestContext, routerContextFor, type AppServices } from "~/context.server";
import * as entry from "~/entry.server";
import routeConfig from "~/routes";

/**
 * The app as the server runs it, without a build: React Router's own request handler over a server build
 * made here from app/routes.ts and the route modules, with the real entry.server rendering each page. A
 * request therefore goes through route matching, every matched loader (root, layouts, page), the action,
 * resource routes, redirects, error boundaries and the HTML render, exactly as in production; only the
 * Express layer in front (helmet, same-origin check, rate limits, static files) is left out.
 */

type RouteModule = Record<string, unknown>;

// Every route module under app/, loaded on demand by file name as routes.ts spells it.
const moduleLoaders = import.meta.glob<RouteModule>(["/app/root.tsx", "/app/routes/**/*.{ts,tsx}"]);

export interface RouteConfigEntry {
  id?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  file: string;
  children?: RouteConfigEntry[];
}

export interface FlatRoute {
  id: string;
  parentId: string;
  /** The route's own path segment(s), as in the build (relative to its parent). */
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  file: string;
  /** The full URL pattern, e.g. "/admin/tickets/:id", "/" for the home page, "/*" for the catch-all. */
  pattern: string;
  /** Layouts match no URL of their own. */
  layout: boolean;
}

/** React Router's default route id: the file name without its extension. */
function routeIdOf(entry: RouteConfigEntry): string {
  return entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
}

/** Every route of app/routes.ts with its id, parent and full URL pattern, in table order. */
export function flattenRoutes(
  entries: RouteConfigEntry[] = routeConfig as RouteConfigEntry[],
  parentId = "root",
  parentPattern = "",
): FlatRoute[] {
  return entries.flatMap((entry) => {
    const id = routeIdOf(entry);
    const pattern = entry.path ? `${parentPattern}/${entry.path}` : parentPattern;
    const flat: FlatRoute = {
      id,
      parentId,
      path: entry.path,
      index: entry.index,
      caseSensitive: entry.caseSensitive,
      file: entry.file,
      pattern: pattern === "" ? "/" : pattern.replace(/\/+/g, "/"),
      layout: !entry.path && !entry.index,
    };
    return [flat, ...flattenRoutes(entry.children ?? [], id, pattern)];
  });
}

/** A route module as written (its loader, action and components). */
export async function routeModule(file: string): Promise<RouteModule> {
  const load = moduleLoaders[`/app/${file}`];
  if (!load) throw new Error(`routes.ts names ${file}, which is not a module under app/`);
  return load();
}

/**
 * A route module as the React Router Vite plugin hands it to the server build: its components wrapped so
 * they receive loaderData, actionData, params and matches as props.
 */
async function loadModule(file: string): Promise<RouteModule> {
  const module = await routeModule(file);
  type Wrap<F extends (component: never) => unknown> = Parameters<F>[0];
  return {
    ...module,
    ...(module.default
      ? {
          default: UNSAFE_withComponentProps(
            module.default as Wrap<typeof UNSAFE_withComponentProps>,
          ),
        }
      : {}),
    ...(module.ErrorBoundary
      ? {
          ErrorBoundary: UNSAFE_withErrorBoundaryProps(
            module.ErrorBoundary as Wrap<typeof UNSAFE_withErrorBoundaryProps>,
          ),
        }
      : {}),
    ...(module.HydrateFallback
      ? {
          HydrateFallback: UNSAFE_withHydrateFallbackProps(
            module.HydrateFallback as Wrap<typeof UNSAFE_withHydrateFallbackProps>,
          ),
        }
      : {}),
  };
}

let built: Promise<ServerBuild> | undefined;

/** The server build React Router would make from routes.ts (the assets point nowhere; nothing loads them). */
export function serverBuild(): Promise<ServerBuild> {
  built ??= (async () => {
    const all = [
      { id: "root", parentId: undefined, path: "", file: "root.tsx" } as const,
      ...flattenRoutes(),
    ];
    const routes: ServerBuild["routes"] = {};
    const assetRoutes: Record<string, unknown> = {};
    for (const route of all) {
      const module = await loadModule(route.file);
      const common = {
        id: route.id,
        parentId: route.parentId,
        path: route.path,
        index: "index" in route ? route.index : undefined,
        caseSensitive: "caseSensitive" in route ? route.caseSensitive : undefined,
      };
      routes[route.id] = { ...common, module } as unknown as ServerBuild["routes"][string];
      assetRoutes[route.id] = {
        ...common,
        module: `/assets/${route.id}.js`,
        imports: [],
        css: [],
        hasAction: typeof module.action === "function",
        hasLoader: typeof module.loader === "function",
        hasClientAction: false,
        hasClientLoader: false,
        hasClientMiddleware: false,
        hasDefaultExport: module.default != null,
        hasErrorBoundary: route.id === "root" || module.ErrorBoundary != null,
      };
    }
    return {
      entry: { module: entry },
      routes,
      assets: {
        entry: { module: "/assets/entry.client.js", imports: [] },
        routes: assetRoutes,
        url: "/assets/manifest.js",
        version: "test",
      },
      basename: "/",
      publicPath: "/",
      assetsBuildDirectory: "build/client",
      future: {},
      ssr: true,
      isSpaMode: false,
      prerender: [],
      routeDiscovery: { mode: "initial" },
      allowedActionOrigins: false,
    } as unknown as ServerBuild;
  })();
  return built;
}

/**
 * The URL React Router's client fetches a page's data from: /contact.data, /_.data for the home page and
 * /contact/_.data for /contact/.
 */
export function dataUrl(path: string): string {
  return path.endsWith("/") ? `${path}_.data` : `${path}.data`;
}

export type AppFetch = (
  path: string,
  init?: {
    method?: string;
    cookie?: string;
    /** Sent as application/x-www-form-urlencoded (and makes the request a POST). */
    form?: Record<string, string>;
    body?: BodyInit;
    headers?: HeadersInit;
    /** The CSP nonce server/index.ts would have made for this response. */
    nonce?: string;
  },
) => Promise<Response>;

/**
 * A fetch-like function that answers requests the way the server would, with the load context
 * server/app.ts builds (session from the cookie, settings, language, i18next), on the given services.
 */
export function appFetch(services: AppServices): AppFetch {
  const handler = createRequestHandler(serverBuild, "production");
  return async (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set("cookie", init.cookie);
    let body = init.body;
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    const url = new URL(path, "http://localhost");
    const method = init.method ?? (body !== undefined ? "POST" : "GET");
    const request = new Request(url, { method, headers, body });
    const context = await createRequestContext(
      services,
      {
        cookie: headers.get("cookie"),
        acceptLanguage: headers.get("accept-language"),
        queryLocale: url.searchParams.get("lang"),
      },
      { cspNonce: init.nonce ?? "test-nonce", clientIp: "10.77.0.1" },
    );
    return withoutCatalogueData(await handler(request, routerContextFor(context)));
  };
}

/**
 * A page React hydrates carries the catalogues it was rendered from as a JSON data block (ADR 29): every
 * text of its namespaces, shown or not. Tests read pages to see what a person sees ("Order not found" on
 * the page, "Page not found" not), so the block is left out of the HTML they get; the browser tests check
 * the block itself (tests/e2e/page-catalogues.spec.ts).
 */
async function withoutCatalogueData(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.startsWith("text/html")) return response;
  const html = (await response.text()).replace(
    /<script id="catalogues" type="application\/json">[\s\S]*?<\/script>/,
    "",
  );
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
}
