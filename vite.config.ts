import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/**
 * On the server, lucide's icons draw through app/lib/lucide-icon.server.tsx, which keeps each icon's
 * markup per set of props instead of building it on every render (ADR 44); the browser keeps
 * lucide's own `Icon`. Only the icons' import of lucide's `Icon` is redirected: the module imports the
 * real one from lucide-react's entry.
 */
function iconsKeptOnTheServer(): Plugin {
  return {
    name: "icons-kept-on-the-server",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "ssr",
    resolveId(source, importer) {
      if (
        source !== "./Icon.mjs" ||
        !importer ||
        !/[\\/]lucide-react[\\/]dist[\\/]esm[\\/]createLucideIcon\.mjs$/.test(importer)
      )
        return null;
      // A path of ours, not "~/": the project's path aliases do not apply to an import from node_modules.
      return fileURLToPath(new URL("./app/lib/lucide-icon.server.tsx", import.meta.url));
    },
  };
}

/**
 * The browser's shared code in layers, each one file cached across pages (ADR 29): the runtime (React,
 * React Router), the other libraries a page imports up front, and our own shared code
 * (app/components, lib, i18n, http and the pure domain rules), in two layers (below). Each route keeps
 * its own chunk; what loads on demand (sonner with a page's first toast, each catalogue of a language and
 * a namespace) stays a file of its own. A layer only imports the layers before it, so no two chunks import each other: grouping by
 * the pages that share a module (rolldown's entriesAware) made cycles between chunks whose code then ran
 * in the wrong order ("e is not a constructor" at hydration), and fixing the order (strictExecutionOrder)
 * cost 9 KiB of wrappers. Measured on /dashboard: automatic chunking 209 KiB in 57 files, these layers
 * 211 KiB in 9.
 *
 * Our shared code is two layers: `kit`, what the root or any page outside /admin imports, and `admin-kit`,
 * what only the admin's pages import (the product editor's PHP-rule checker, the admin shell, the data
 * table...). With one layer every customer page loaded the admin's code too: 39.4 KiB gzip of which a
 * customer page used 17.9. A module the kit imports is itself used outside /admin, so the kit never
 * imports the admin layer and the layers stay in order.
 */
type ModuleGraph = {
  getModuleInfo(
    id: string,
  ): { importers: readonly string[]; dynamicImporters: readonly string[] } | null;
};
const ADMIN_ROUTE = /[\\/]app[\\/]routes[\\/]admin[\\/]/;
const OTHER_ENTRY = /[\\/]app[\\/](routes[\\/]|root\.tsx|entry\.client)/;
const usedOutsideAdminCache = new Map<string, boolean>();

/** Whether a page outside /admin (or the root) imports the module, directly or through others. */
function usedOutsideAdmin(id: string, graph: ModuleGraph): boolean {
  let known = usedOutsideAdminCache.get(id);
  if (known === undefined) {
    known = reachesOtherEntry(id, graph, new Set());
    usedOutsideAdminCache.set(id, known);
  }
  return known;
}

// One walk up the importers per question: an answer found half-way in a cycle is not a whole answer, so
// only the top-level one is kept.
function reachesOtherEntry(id: string, graph: ModuleGraph, seen: Set<string>): boolean {
  if (ADMIN_ROUTE.test(id)) return false;
  if (OTHER_ENTRY.test(id)) return true;
  if (seen.has(id)) return false;
  seen.add(id);
  const info = graph.getModuleInfo(id);
  const importers = info ? [...info.importers, ...info.dynamicImporters] : [];
  return (
    importers.length === 0 || importers.some((importer) => reachesOtherEntry(importer, graph, seen))
  );
}

const OUR_SHARED_CODE = /app\/(components|lib|http|domain)\/|app\/i18n\/[\w-]+\.tsx?$/;

const CHUNK_GROUPS = [
  {
    name: "runtime",
    test: /node_modules\/(react|react-dom|scheduler|react-router|@remix-run\/route-pattern|cookie-es)\//,
    priority: 30,
  },
  { name: "vendor", test: /node_modules\//, priority: 20, tags: ["$initial" as const] },
  // The kit first: a group takes the modules its modules import along with them, so the admin's layer,
  // taken first, would take the kit's shared pieces it imports.
  {
    name: (id: string, graph: ModuleGraph) => (usedOutsideAdmin(id, graph) ? "kit" : null),
    test: OUR_SHARED_CODE,
    priority: 11,
    tags: ["$initial" as const],
  },
  { name: "admin-kit", test: OUR_SHARED_CODE, priority: 10, tags: ["$initial" as const] },
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
  plugins: [iconsKeptOnTheServer(), tailwindcss(), reactRouter()],
});
