/**
 * Second half of `npm run build`: compiles the Express entry (server/index.ts and the few modules it
 * imports) into one JavaScript file beside the React Router build, so production runs plain JavaScript
 * and loads no TypeScript compiler (ADR 17). Packages stay imports of node_modules; the React Router
 * build (server/app.ts with the routes) is imported by that file at start, as before.
 */
import path from "node:path";
import { build } from "esbuild";
import { SERVER_ENTRY } from "../server/command";

const buildDirectory = process.env.BUILD_DIR ?? "build";
const outfile = path.join(buildDirectory, SERVER_ENTRY);

await build({
  entryPoints: ["server/index.ts"],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  packages: "external",
  tsconfig: "tsconfig.json",
  logLevel: "warning",
});
console.log(`Server entry compiled to ${outfile}`);
