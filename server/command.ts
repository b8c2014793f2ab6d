/**
 * How production starts the server, in one place: `npm run serve` (package.json, checked against this
 * by a unit test), the browser tests' servers (playwright.config.ts) and the benchmarks and soaks
 * (scripts/bench/lib.ts) all run this, so what they measure and test is what a host runs (ADR 17).
 */

/** The compiled Express entry, inside the build folder (scripts/build-server.ts writes it). */
export const SERVER_ENTRY = "server/main.js";

/**
 * Two flags that cut a server process's resident memory (ADR 17, measured with `npm run bench:runtime`):
 *
 * - V8's young generation capped at 8 MiB per half: Node 24 sizes it from the machine's memory (64 MiB
 *   halves on a 24 GiB host), which cost about 100 MB more for no measured gain in CPU per request on our
 *   short requests;
 * - one V8 background thread instead of four: each thread that allocates gets a C heap (arena) of its
 *   own, about 35 MB of resident memory for the three spare ones; a host runs one process per core
 *   (WEB_CONCURRENCY), so more threads than cores only take turns.
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=8", "--v8-pool-size=1"];

/** The arguments to give `node` to run the production server from a build folder. */
export function serverArguments(buildDirectory = "build"): string[] {
  return [...SERVER_NODE_FLAGS, `${buildDirectory.replace(/\/$/, "")}/${SERVER_ENTRY}`];
}
