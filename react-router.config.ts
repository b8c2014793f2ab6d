import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Signed-in browsers get the whole route manifest once (a cached file) instead of asking the server
  // which routes a page links to, and the server stops building a partial manifest into every page
  // (ADR 16).
  routeDiscovery: { mode: "initial" },
  // React Router v8's behaviours, taken early (one commit each, ADR 18).
  future: {
    // No route has client-side exports (clientLoader, clientAction, HydrateFallback) to split off: the
    // pages' chunks stay as they are.
    v8_splitRouteModules: true,
    // The server build's entry (server/app.ts) is set on Vite's ssr environment (vite.config.ts).
    v8_viteEnvironmentApi: true,
    // /_.data and /x/_.data for the home page's and /x/'s data: the maintenance gate and the request
    // limits read both formats (server/maintenance.ts, server/action-route.ts).
    v8_trailingSlashAwareDataRequests: true,
    // A data request's `request` reaches loaders and actions as it came (.data suffix, ?_routes,
    // ?index); the page's own address is their `url` argument, which the guards, the root's hreflang
    // links and the list loaders read (ADR 18).
    v8_passThroughRequests: true,
    // Loaders and actions read the request context through requestContext(context): server/app.ts's
    // getLoadContext hands it over in React Router's context (app/context.server.ts).
    v8_middleware: true,
  },
  // BUILD_DIR lets several builds sit side by side (e.g. parallel browser-test runs). Read raw: this
  // runs at build time, where the settings schema (app/config/env.server.ts, which the server reads it
  // through) would stop a build over runtime settings such as DATABASE_URL; same default.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
