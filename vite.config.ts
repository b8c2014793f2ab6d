import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The server build's entry is our Express app, so the database, auth and
  // React Router handler live in one module graph (one connection pool). Set on the server environment
  // (Vite's Environment API, React Router's v8_viteEnvironmentApi), not on the top-level build.
  environments: { ssr: { build: { rollupOptions: { input: "./server/app.ts" } } } },
  resolve: { tsconfigPaths: true },
  // Bundled into the server build, so only the icons the pages use are in it: loaded from node_modules,
  // the server held the whole icon set (its source twice and thousands of icon arrays, about 20 MB of a
  // server process's heap; ADR 17).
  ssr: { noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//] },
  plugins: [tailwindcss(), reactRouter()],
});
