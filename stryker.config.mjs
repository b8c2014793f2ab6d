// @ts-check
import process from "node:process";
/**
 * `npm run mutate`: Stryker's mutation check over the money and jobs domain (docs/mutation.md). Outside
 * CI: it runs the tests that cover each mutant, thousands of times, for hours on two cores. One area at
 * a time, with its own report and incremental file: `MUTATE_AREA=coins npm run mutate`.
 *
 * `MUTATE_PASS=schemas` checks the area's *.schemas.ts files instead, against the area's own tests: a
 * schema is built when its module loads, so its mutants must be switched on before any test file loads
 * (Stryker's static mutants), and each then runs every test it is given.
 */
const AREAS = ["coins", "orders", "invoices", "payments", "jobs"];
const area = process.env.MUTATE_AREA;
if (area && !AREAS.includes(area))
  throw new Error(`MUTATE_AREA must be one of ${AREAS.join(", ")}, not "${area}"`);
const schemas = process.env.MUTATE_PASS === "schemas";
if (schemas && !area) throw new Error("MUTATE_PASS=schemas needs one MUTATE_AREA");
const domain = `app/domain/${area ?? `{${AREAS.join(",")}}`}`;
const out = `.tmp/mutation${area ? `/${area}` : ""}${schemas ? "/schemas" : ""}`;
// Read by vitest.config.ts in the runners Stryker starts (they inherit this process's environment).
if (schemas) process.env.MUTATE_TESTS_UNDER = domain;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.config.ts", related: true },
  mutate: schemas
    ? [`${domain}/**/*.schemas.ts`]
    : [
        `${domain}/**/*.ts`,
        "!app/domain/**/*.test.ts",
        "!app/domain/**/*.test.tsx",
        // The schemas pass's: here their mutants would be switched on after the module loaded.
        "!app/domain/**/*.schemas.ts",
      ],
  coverageAnalysis: "perTest",
  // A static mutant (a module-level value: a list of kinds, a limit) is run against every test, three
  // minutes or more each: left out and counted in docs/mutation.md, except in the schemas pass.
  ignoreStatic: !schemas,
  // Each mutant's tests run in a sandbox copy of the project; two at a time, one a core.
  concurrency: 2,
  // One sandbox folder per pass, so that two passes can run at once.
  tempDirName: `.tmp/stryker${area ? `-${area}` : ""}${schemas ? "-schemas" : ""}`,
  ignorePatterns: [".tmp", "build", "test-results", "data", "coverage"],
  timeoutMS: 60_000,
  // The first run is every covering test with coverage on: past Stryker's default 5 minutes on a busy
  // two-core host, which then stops the whole pass.
  dryRunTimeoutMinutes: 30,
  // What was decided stays decided: a second run tests again only the mutants whose code or tests
  // changed. Not in the schemas pass: Stryker keeps a static mutant's verdict when only tests changed
  // (it knows no test that covers it), and the pass takes minutes.
  incremental: !schemas,
  incrementalFile: `${out}/incremental.json`,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `${out}/report.html` },
  jsonReporter: { fileName: `${out}/report.json` },
  clearTextReporter: { logTests: false, maxTestsToLog: 0 },
};
