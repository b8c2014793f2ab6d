/**
 * postinstall: makes sure the server's native modules load in the Node.js that runs the project (ADR 17).
 *
 * `npm install` runs on the machine's own Node (20 here), while every npm script runs on the Node 24 that
 * the project installs as a package (node_modules/.bin/node comes first on a script's PATH). The server's
 * two native modules, better-sqlite3 and @node-rs/argon2, ship Node-API binaries for the usual platforms
 * inside their registry packages, which any Node version loads: nothing is built or fetched. On a platform
 * without such a binary, better-sqlite3 is built here from the sources in its package, with npm's own
 * node-gyp, against the headers that come with the project's Node (its own install script would reach for
 * GitHub, and npm's user config may name another Node's headers). Either way this script ends by loading
 * both modules in the project's Node, so a broken install fails here and not when the site starts.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, "..");

const probes: Record<string, string> = {
  "better-sqlite3": "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()",
  "@node-rs/argon2": "require('@node-rs/argon2').hashSync('probe', { memoryCost: 1024 })",
};

function loads(name: string): boolean {
  const result = spawnSync(process.execPath, ["-e", probes[name]!], { cwd: root, stdio: "ignore" });
  return result.status === 0;
}

/** The folder holding include/node/node.h for the running Node, or null when it has none beside it. */
function headersOfThisNode(): string | null {
  const candidate = path.resolve(path.dirname(process.execPath), "..");
  return existsSync(path.join(candidate, "include/node/node.h")) ? candidate : null;
}

function buildBetterSqlite(): boolean {
  const nodeGyp = process.env.npm_config_node_gyp;
  if (!nodeGyp || !existsSync(nodeGyp)) {
    console.error("node-gyp was not found: run `npm install` in the project folder.");
    return false;
  }
  const headers = headersOfThisNode();
  console.log(
    `better-sqlite3 has no prebuilt binary for ${process.platform}-${process.arch}: building it for Node ${process.version} against ${headers ?? "node-gyp's default headers"} (a minute or two)...`,
  );
  const env = { ...process.env };
  // npm hands its configuration to scripts as npm_config_*, and node-gyp reads nodedir from there too.
  if (headers) env.npm_config_nodedir = headers;
  else delete env.npm_config_nodedir;
  const build = spawnSync(
    process.execPath,
    [nodeGyp, "rebuild", "--release", ...(headers ? [`--nodedir=${headers}`] : [])],
    {
      cwd: path.dirname(require.resolve("better-sqlite3/package.json")),
      env,
      stdio: "inherit",
    },
  );
  return build.status === 0;
}

if (!loads("better-sqlite3") && !(buildBetterSqlite() && loads("better-sqlite3"))) {
  console.error(`better-sqlite3 does not load in Node ${process.version} (see above).`);
  process.exit(1);
}
if (!loads("@node-rs/argon2")) {
  console.error(
    `@node-rs/argon2 does not load in Node ${process.version}: it has no binary for ${process.platform}-${process.arch}.`,
  );
  process.exit(1);
}
console.log(`Native modules load in Node ${process.version}.`);
