/**
 * `npm test`: every layer CI runs, one after the other, stopping at the first that fails; then the time
 * of each layer, the slowest test files and browser specs, and the host's CPU index beside them, so that
 * a run says where its time went (docs/testing.md). It warns, never fails, past the suite's budget.
 */
import { spawnSync } from "node:child_process";
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
  { name: "typecheck", command: "npm run typecheck" },
  { name: "lint", command: "npm run lint" },
  { name: "format check", command: "npm run format:check" },
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
  { name: "build", command: "npm run build" },
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

for (const step of chosen) {
  console.log(`\n▶ ${step.name}: ${step.command}\n`);
  const stepStarted = performance.now();
  const result = spawnSync(step.command, {
    shell: true,
    stdio: "inherit",
    env: { ...process.env, PATH: `${path.resolve("node_modules/.bin")}:${process.env.PATH}` },
  });
  const minutes = (performance.now() - stepStarted) / 60_000;
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
  done.push({ step, minutes, summary });
  if (result.status !== 0) {
    failed = step;
    break;
  }
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
