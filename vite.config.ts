import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

const CHUNK_GROUPS = [
  {
    name: "runtime",
    test: /node_modules\/(react|react-dom|scheduler|react-router|i18next|react-i18next|turbo-stream|cookie|set-cookie-parser)\//,
    priority: 30,
  },
  {
    name: "kit",
    test: /node_modules\/|app\/(components|lib|http|domain)\/|app\/i18n\/[\w-]+\.tsx?$/,
    priority: 20,
    // Only what pages import up front: what loads on demand (sonner with a page's first toast, the
    // catalogues) stays a chunk of its own.
    tags: ["$initial" as const],
    entriesAware: true,
    // Groups used by fewer pages merge into larger ones up to about 90 KB (before gzip): measured with
    // 20, 30, 45, 60 and 90 KB, the larger the threshold the fewer files and bytes a page loads
    // (/dashboard: 22 files 222 KiB, 16 / 219, 14 / 218, 14 / 218, 12 / 216).
    entriesAwareMergeThreshold: 90_000,
  },
];

export default defineConfig({
  // The server build's entry is our Express app, so the database, auth and
  // React Router handler live in one module graph (one connection pool). Set on the server environment
  // (Vite's Environment API, React Router's v8_viteEnvironmentApi), not on the top-level build.
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
    // A signed-in page loads a handful of files instead of about sixty (ADR 29): the runtime, the kit and
    // the pure domain rules each in one chunk, cached across pages; each route keeps its own chunk, and
    // each catalogue (a language and a namespace) stays a file of its own, loaded when a page needs it.
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: { groups: CHUNK_GROUPS },
            // A kit chunk is named after the pages that share it ("kit~root~site-layout~..."): the first
            // two keep the benchmark's composition readable.
            chunkFileNames: ({ name }) =>
              name.startsWith("kit~")
                ? `assets/kit-${name.split("~").slice(1, 3).join("-")}-[hash].js`
                : "assets/[name]-[hash].js",
          },
        },
      },
    },
  },
  resolve: { tsconfigPaths: true },
  // Bundled into the server build, so only the icons the pages use are in it: loaded from node_modules,
  // the server held the whole icon set (its source twice and thousands of icon arrays, about 20 MB of a
  // server process's heap; ADR 17).
  ssr: { noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//] },
  plugins: [tailwindcss(), reactRouter()],
});
