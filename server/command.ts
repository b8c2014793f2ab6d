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

/**
 * The environment production's server starts with, beside its flags: how glibc's malloc keeps memory
 * (ADR 53, measured with `npm run bench:proofs`). Read by glibc when the process starts: it cannot be set
 * later.
 *
 * - Two C heaps (arenas) rather than eight per core: the threads of libvips, which decodes proof images
 *   (sharp), each took an arena of its own, and the images they freed left them fragmented: resident
 *   memory grew by about 90 MB with each 24-megapixel image decoded one after the other.
 * - Blocks of 128 KiB and more always mapped apart (a fixed threshold): by default glibc raises the
 *   threshold to the largest block freed, up to 32 MiB, so that after one upload the next uploads' buffers
 *   (bodies, files, images) came from the heap and stayed there once freed (480 MB after three posts of
 *   proofs, 287 MB with the threshold fixed).
 */
export const SERVER_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
};

/** `SERVER_ENV` as a shell command's prefix (`npm run serve`, the browser tests' servers). */
export function serverEnvPrefix(): string {
  return Object.entries(SERVER_ENV)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");
}

/** The arguments to give `node` to run the production server from a build folder. */
export function serverArguments(buildDirectory = "build"): string[] {
  return [...SERVER_NODE_FLAGS, `${buildDirectory.replace(/\/$/, "")}/${SERVER_ENTRY}`];
}
