import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * The browser's shared code in three layers, each one file cached across pages (ADR 29): the runtime
 * (React, React Router, i18next), the other libraries a page imports up front, and our own shared code
 * (app/components, lib, i18n, http and the pure domain rules). Each route keeps its own chunk; what loads
 * on demand (sonner with a page's first toast, each catalogue of a language and a namespace) stays a file
 * of its own. A layer only imports the layers before it, so no two chunks import each other: grouping by
 * the pages that share a module (rolldown's entriesAware) made cycles between chunks whose code then ran
 * in the wrong order ("e is not a constructor" at hydration), and fixing the order (strictExecutionOrder)
 * cost 9 KiB of wrappers. Measured on /dashboard: automatic chunking 209 KiB in 57 files, these layers
 * 211 KiB in 9.
 */
const CHUNK_GROUPS = [
  {
    name: "runtime",
    test: /node_modules\/(react|react-dom|scheduler|react-router|i18next|react-i18next|html-parse-stringify|void-elements|turbo-stream|cookie|set-cookie-parser)\//,
    priority: 30,
  },
  { name: "vendor", test: /node_modules\//, priority: 20, tags: ["$initial" as const] },
  {
    name: "kit",
    test: /app\/(components|lib|http|domain)\/|app\/i18n\/[\w-]+\.tsx?$/,
    priority: 10,
    tags: ["$initial" as const],
  },
];

export default defineConfig({
  // The server build's entry is our Express app, so the database, auth and
  // React Router handler live in one module graph (one connection pool). Set on the server environment
  // (Vite's Environment API, React Router's v8_viteEnvironmentApi), not on the top-level build.
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
    // A signed-in page loads a handful of script files instead of about sixty (CHUNK_GROUPS above).
    client: { build: { rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } } } },
  },
  resolve: { tsconfigPaths: true },
  // Bundled into the server build, so only the icons the pages use are in it: loaded from node_modules,
  // the server held the whole icon set (its source twice and thousands of icon arrays, about 20 MB of a
  // server process's heap; ADR 17).
  ssr: { noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//] },
  plugins: [tailwindcss(), reactRouter()],
});
