/**
 * npm run bench / npm run soak: every part in turn on one build (built first unless --reuse-build), each
 * as its own npm script with --reuse-build. A part that misses a budget exits 1, and the parts after it
 * still run, so one command gives every figure; this exits 1 when any part did. Prints what each part
 * exited with and how long it took. `--quick` is passed on to every part.
 */
import { spawnSync } from "node:child_process";
import { ensureBuild, printTable, QUICK } from "./lib";

const SUITES: Record<string, string[]> = {
  bench: [
    "bench:web",
    "bench:server",
    "bench:scale",
    "bench:runtime",
    "bench:lifecycle",
    "bench:provisioning",
    "bench:servers",
  ],
  soak: ["soak:crash", "soak:load", "soak:jobs"],
};

const suite = process.argv[2] ?? "";
const parts = SUITES[suite];
if (!parts) {
  console.error(`usage: run-all.ts ${Object.keys(SUITES).join("|")} [--reuse-build] [--quick]`);
  process.exit(2);
}
ensureBuild();
const rows: Record<string, string | number>[] = [];
for (const part of parts) {
  const started = Date.now();
  const result = spawnSync(
    "npm",
    ["run", part, "--", "--reuse-build", ...(QUICK ? ["--quick"] : [])],
    { stdio: "inherit" },
  );
  rows.push({
    part: `npm run ${part}`,
    "exit code": result.status ?? `signal ${result.signal}`,
    minutes: ((Date.now() - started) / 60_000).toFixed(1),
    verdict: result.status === 0 ? "every budget met" : "MISSED (see its verdict table above)",
  });
}
printTable(`npm run ${suite}${QUICK ? " --quick (not a measure)" : ""}`, rows);
process.exit(rows.every((row) => row["exit code"] === 0) ? 0 : 1);
