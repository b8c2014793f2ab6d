import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Signed-in browsers get the whole route manifest once (a cached file) instead of asking the server
  // which routes a page links to, and the server stops building a partial manifest into every page
  // (ADR 16).
  routeDiscovery: { mode: "initial" },
  // BUILD_DIR lets several builds sit side by side (e.g. parallel browser-test runs); server/index.ts reads it too.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
