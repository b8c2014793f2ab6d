// @ts-check
/**
 * `npm run mutate`: Stryker's mutation check over the money and jobs domain (docs/testing.md). Outside
 * CI: it runs the tests that cover each mutant, thousands of times, for hours on two cores. A subset:
 * `npm run mutate -- --mutate app/domain/coins/coins.ts`.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.config.ts", related: true },
  mutate: [
    "app/domain/{coins,orders,invoices,payments,jobs}/**/*.ts",
    "!app/domain/**/*.test.ts",
    "!app/domain/**/*.test.tsx",
  ],
  coverageAnalysis: "perTest",
  // A static mutant (a module-level value: a list of kinds, a limit) is run against every test, three
  // minutes or more each; they are left out and counted in docs/testing.md.
  ignoreStatic: true,
  // Each mutant's tests run in a sandbox copy of the project; two at a time, one a core.
  concurrency: 2,
  tempDirName: ".tmp/stryker",
  ignorePatterns: [".tmp", "build", "test-results", "data", "coverage"],
  timeoutMS: 60_000,
  // What was decided stays decided: a second run tests again only the mutants whose code or tests
  // changed.
  incremental: true,
  incrementalFile: ".tmp/mutation/incremental.json",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: ".tmp/mutation/report.html" },
  jsonReporter: { fileName: ".tmp/mutation/report.json" },
  clearTextReporter: { logTests: false, maxTestsToLog: 0 },
};
