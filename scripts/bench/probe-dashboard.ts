/**
 * `node --import tsx scripts/bench/probe-dashboard.ts [--reuse-build]`, not part of `npm run bench`: each
 * signed-in page of an empty customer and of one with history, requested one at a time by one server
 * process, with the server's CPU per request and the HTML size, to find which page costs what.
 * Each request carries a browser's headers (BROWSER_HEADERS: brotli accepted, as the server benchmark
 * sends); the wire size is what the server sent, the HTML size after decoding it.
 *
 * - PROBE_N: requests per page (30; CPU time is read in 10 ms ticks, so use 200 or more to compare);
 * - PROBE_WARM: warm-up rounds over every page (20);
 * - PROBE_DB=postgres: a throwaway durable PostgreSQL cluster instead of SQLite;
 * - PROBE_ENCODING: another Accept-Encoding (`gzip`, `identity`);
 * - PROBE_BUILDS=dirA,dirB: two builds (made with `BUILD_DIR=dirA npm run build`) side by side, each
 *   with its own server and database, their requests taken in turns of ten, so that whatever else the
 *   machine is doing weighs on both alike; without it, the benchmark's build;
 * - PROBE_FLAGS="flagsA|flagsB": Node flags for each target's server, after production's (e.g.
 *   `PROBE_BUILDS=.tmp/bench-build,.tmp/bench-build PROBE_FLAGS="|--max-semi-space-size=16"` compares one
 *   build under two settings);
 * - PROBE_PROF=1: V8 CPU profiles into .tmp/prof; PROBE_SAVE=1: each page's last HTML into
 *   .tmp/probe-html.
 */
import { findPostgresBin } from "../../tests/support/postgres-cluster";
import { BENCH_BUILD, BROWSER_HEADERS, ensureBuild, printTable } from "./lib";
import { measureSignedInCpu } from "./signed-in-cpu";

const N = Number(process.env.PROBE_N ?? 30);
const headers: Record<string, string> = {
  ...BROWSER_HEADERS,
  ...(process.env.PROBE_ENCODING ? { "accept-encoding": process.env.PROBE_ENCODING } : {}),
};
const builds = process.env.PROBE_BUILDS?.split(",").filter(Boolean) ?? [];
const flagSets = (process.env.PROBE_FLAGS?.split("|") ?? []).map((flags) =>
  flags.split(" ").filter(Boolean),
);
const postgres = process.env.PROBE_DB === "postgres";
if (builds.length === 0) ensureBuild();
if (postgres && !findPostgresBin()) throw new Error("PROBE_DB=postgres: no PostgreSQL binaries");

try {
  const measured = await measureSignedInCpu({
    builds: builds.length ? builds : [BENCH_BUILD],
    postgres,
    n: N,
    warm: Number(process.env.PROBE_WARM ?? 20),
    flagSets,
    headers,
    save: Boolean(process.env.PROBE_SAVE),
    prof: Boolean(process.env.PROBE_PROF),
  });
  printTable(
    `dashboard probe (${postgres ? "postgres" : "sqlite"}, 1 process, sequential, ${N} requests a page, Accept-Encoding: ${headers["accept-encoding"]})`,
    measured.rows,
  );
  for (const mean of measured.means)
    console.log(
      `mean cpu ms/req over the pages${measured.means.length > 1 ? ` (${mean.label})` : ""}: ${mean.cpuMs.toFixed(2)}`,
    );
} catch (error) {
  // Said and counted: the exit below would otherwise end a failed probe with 0 and no word.
  console.error(error);
  process.exitCode = 1;
} finally {
  process.exit();
}
