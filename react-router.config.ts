import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Signed-in browsers get the whole route manifest once (a cached file) instead of asking the server
  // which routes a page links to, and the server stops building a partial manifest into every page
  // (ADR 16).
  routeDiscovery: { mode: "initial" },
  // What the code relies on of React Router 8's defaults (taken early in v7, ADR 18): the server
  // build's entry (server/app.ts) is set on Vite's ssr environment (vite.config.ts); /_.data and
  // /x/_.data carry the home page's and /x/'s data (the maintenance gate and the request limits read
  // both, server/maintenance.ts, server/action-route.ts); a data request's `request` reaches loaders and
  // actions as it came, the page's own address being their `url` argument; loaders and actions read the
  // request context through requestContext(context) (app/context.server.ts). No route has client-side
  // exports to split off, so splitting route modules leaves the pages' chunks as they are.
  // BUILD_DIR lets several builds sit side by side (e.g. parallel browser-test runs). Read raw: this
  // runs at build time, where the settings schema (app/config/env.server.ts, which the server reads it
  // through) would stop a build over runtime settings such as DATABASE_URL; same default.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
