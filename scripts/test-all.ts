/**
 * `npm test`: every layer CI runs, one after the other, stopping at the first that fails; then the time
 * of each layer, the slowest test files and browser specs, and the host's CPU index beside them, so that
 * a run says where its time went (docs/testing.md). It warns, never fails, past the suite's budget.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { probeCpu } from "./bench/cpu-probe";
import {
  formatMinutes,
  readPlaywrightReport,
  readVitestReport,
  slowest,
  type FileTime,
} from "./test-times";

/** The suite's budget (docs/testing.md): past it the run says so. */
const BUDGET_MINUTES = 45;
const TIMES = ".tmp/test-times";

interface Step {
  name: string;
  command: string;
  /** Where the step writes its per-file times (a Vitest or Playwright JSON report). */
  report?: { kind: "vitest" | "playwright"; file: string };
  /**
   * Steps next to each other with the same group run side by side, each on a core of its own: the
   * static checks and the build are each one process that uses one core. Their output is printed as
   * each ends, whole, so that it does not interleave.
   */
  group?: string;
}

const e2ePort = process.env.E2E_PORT;
const e2eReport =
  !e2ePort || e2ePort === "3210"
    ? "test-results/e2e-results.json"
    : `.tmp/e2e-results-${e2ePort}/e2e-results.json`;

const vitest = (layer: string) =>
  `vitest run --project '${layer}*' --reporter=default --reporter=json --outputFile.json=${TIMES}/${layer}.json`;

const steps: Step[] = [
  { name: "what npm cannot install", command: "node --import tsx scripts/ensure-test-deps.ts" },
  { name: "typecheck", command: "npm run typecheck", group: "checks" },
  { name: "lint", command: "npm run lint", group: "checks" },
  { name: "format check", command: "npm run format:check", group: "checks" },
  // The browser tests' production build, made beside the checks.
  { name: "build", command: "npm run build", group: "checks" },
  {
    name: "unit",
    command: vitest("unit"),
    report: { kind: "vitest", file: `${TIMES}/unit.json` },
  },
  {
    name: "integration",
    command: vitest("integration"),
    report: { kind: "vitest", file: `${TIMES}/integration.json` },
  },
  {
    name: "browser",
    command: "playwright test",
    report: { kind: "playwright", file: e2eReport },
  },
];

// SKIP_E2E=1 leaves the browser tests out (and the build they need), as ensure-test-deps allows.
const chosen =
  process.env.SKIP_E2E === "1"
    ? steps.filter((step) => step.name !== "build" && step.name !== "browser")
    : steps;

rmSync(TIMES, { recursive: true, force: true });
mkdirSync(TIMES, { recursive: true });
const cpu = probeCpu({ rounds: 3, durationMs: 300 });
const started = performance.now();
const done: { step: Step; minutes: number; summary: string }[] = [];
const files: FileTime[] = [];
const specs: FileTime[] = [];
let failed: Step | undefined;

/** Runs a step; its output goes straight through, or is kept and printed whole when it ends. */
function run(step: Step, keepOutput: boolean): Promise<{ status: number; minutes: number }> {
  const stepStarted = performance.now();
  if (!keepOutput) console.log(`\n▶ ${step.name}: ${step.command}\n`);
  const child = spawn(step.command, {
    shell: true,
    stdio: keepOutput ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...process.env, PATH: `${path.resolve("node_modules/.bin")}:${process.env.PATH}` },
  });
  const output: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      if (keepOutput) {
        console.log(`\n▶ ${step.name}: ${step.command}\n`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ status: code ?? 1, minutes: (performance.now() - stepStarted) / 60_000 });
    });
  });
}

/** The steps in order, those of one group together. */
const batches: Step[][] = [];
for (const step of chosen) {
  const last = batches.at(-1);
  if (step.group && last?.[0]?.group === step.group) last.push(step);
  else batches.push([step]);
}

for (const batch of batches) {
  const results = await Promise.all(batch.map((step) => run(step, batch.length > 1)));
  batch.forEach((step, index) => {
    let summary = "";
    if (step.report && existsSync(step.report.file)) {
      const text = readFileSync(step.report.file, "utf8");
      const report =
        step.report.kind === "vitest" ? readVitestReport(text) : readPlaywrightReport(text);
      summary = `${report.tests} tests in ${report.files.length} files`;
      (step.report.kind === "vitest" ? files : specs).push(
        ...report.files.map((file) => ({ ...file, layer: step.name })),
      );
    }
    const minutes = results[index]!.minutes;
    done.push({
      step,
      minutes,
      summary: batch.length > 1 ? [summary, "side by side"].filter(Boolean).join(", ") : summary,
    });
    if (results[index]!.status !== 0) failed ??= step;
  });
  if (failed) break;
}

const total = (performance.now() - started) / 60_000;
const lines = [
  "",
  `Test run: ${formatMinutes(total)} min${failed ? `, stopped at ${failed.name}` : ""}; host CPU index ${cpu.median} (${cpu.min} to ${cpu.max}, scripts/bench/cpu-probe.ts)`,
  ...done.map(
    ({ step, minutes, summary }) =>
      `  ${step.name.padEnd(24)} ${formatMinutes(minutes).padStart(6)} min${summary ? `  ${summary}` : ""}`,
  ),
];
if (files.length) {
  lines.push(
    "",
    "The 15 slowest test files (seconds, their tests and hooks, side by side with others):",
  );
  lines.push(
    ...slowest(files, 15).map(
      (file) => `  ${file.seconds.toFixed(1).padStart(6)}  ${file.layer}  ${file.name}`,
    ),
  );
}
if (specs.length) {
  lines.push("", "The 15 slowest browser specs (seconds, their tests added up):");
  lines.push(
    ...slowest(specs, 15).map((spec) => `  ${spec.seconds.toFixed(1).padStart(6)}  ${spec.name}`),
  );
}
if (total > BUDGET_MINUTES)
  lines.push(
    "",
    `Warning: the run took ${formatMinutes(total)} minutes, past the suite's budget of ${BUDGET_MINUTES} (docs/testing.md).`,
  );
console.log(lines.join("\n"));
process.exitCode = failed ? 1 : 0;
