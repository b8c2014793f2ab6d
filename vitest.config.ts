import { globSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
// With ".js": Vite warns about a config importing a file without its extension.
import { testTemporaryFolder } from "./tests/support/scratch.js";

// A RAM disk when the machine has one (the browser tests choose the same folder).
const temporaryFolder = testTemporaryFolder();
// Set in this process, so that the global setup (the PostgreSQL cluster, the template databases), which
// runs here, and every worker, which inherits it, write there.
if (temporaryFolder) process.env.TMPDIR = temporaryFolder;

const UNIT = [
  "app/**/*.test.{ts,tsx}",
  "server/**/*.test.ts",
  "scripts/**/*.test.ts",
  "eslint/**/*.test.ts",
];
const INTEGRATION = [
  "app/**/*.integration.test.{ts,tsx}",
  "server/**/*.integration.test.ts",
  "tests/integration/**/*.test.ts",
];

/**
 * The test files that replace a module (vi.mock): they run isolated, each in a fresh module graph. The
 * others share their worker's modules from one file to the next, which saves a second or two of loading
 * a file (measured in docs/testing.md); a module replaced in one of them would be what the next file
 * imports, or a module already loaded would stay unreplaced.
 */
const MOCKING = /\bvi\.(mock|doMock|unmock|doUnmock)\(/;
const mocking = (patterns: string[]) =>
  globSync(patterns, { exclude: ["node_modules/**"] }).filter((file) =>
    MOCKING.test(readFileSync(file, "utf8")),
  );

/**
 * The mutation check's schemas pass (stryker.config.mjs): only the tests of one area's folder, every
 * file isolated. A schema's mutant is switched on before the test files load; a worker kept from one
 * mutant's run to the next would keep the modules it evaluated, and the mutant would never take effect.
 */
const testsUnder = process.env.MUTATE_TESTS_UNDER;
const within = (patterns: string[]) =>
  testsUnder === undefined
    ? patterns
    : patterns.flatMap((pattern) =>
        pattern.startsWith("app/**/") ? [pattern.replace("app/", `${testsUnder}/`)] : [],
      );

/** Two projects for one layer: the files that share their worker's modules, and those that mock. */
function layer(
  name: string,
  include: string[],
  exclude: string[],
  test: TestProjectInlineConfiguration["test"] = {},
): TestProjectInlineConfiguration[] {
  const files = within(include);
  const isolated = mocking(files).filter(
    (file) => !exclude.some((pattern) => globSync(pattern).includes(file)),
  );
  const projects: TestProjectInlineConfiguration[] = [
    {
      extends: true,
      test: {
        ...test,
        name,
        include: files,
        exclude: [...exclude, ...isolated],
        isolate: testsUnder !== undefined,
      },
    },
  ];
  // Only when there are some: an empty include would mean Vitest's default one, every test file.
  if (isolated.length)
    projects.push({
      extends: true,
      test: { ...test, name: `${name}:isolated`, include: isolated, isolate: true },
    });
  return projects;
}

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Every core: the test files were written to run side by side (each its own databases and ports).
    maxWorkers: availableParallelism(),
    environment: "node",
    projects: [
      ...layer("unit", UNIT, ["**/*.integration.test.{ts,tsx}"]),
      ...layer("integration", INTEGRATION, [], {
        // One throwaway PostgreSQL cluster for the run, and the template databases each test copies.
        globalSetup: ["tests/support/postgres-global-setup.ts"],
        testTimeout: 30_000,
        hookTimeout: 60_000,
        env: { NODE_ENV: "test" },
      }),
    ],
  },
});
