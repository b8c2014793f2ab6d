/** What Vitest's and Playwright's JSON reports say of where a test run's time went (scripts/test-all.ts). */

export interface FileTime {
  /** The test file, relative to the project. */
  name: string;
  seconds: number;
  tests: number;
  layer?: string;
}

export interface LayerTimes {
  tests: number;
  files: FileTime[];
}

function relative(file: string): string {
  const cwd = `${process.cwd()}/`;
  return file.startsWith(cwd) ? file.slice(cwd.length) : file;
}

interface VitestReport {
  numTotalTests: number;
  testResults: { name: string; startTime: number; endTime: number; assertionResults: unknown[] }[];
}

/** A file's time in Vitest's report: from its start to its end, hooks included. */
export function readVitestReport(json: string): LayerTimes {
  const report = JSON.parse(json) as VitestReport;
  return {
    tests: report.numTotalTests,
    files: report.testResults.map((file) => ({
      name: relative(file.name),
      seconds: (file.endTime - file.startTime) / 1000,
      tests: file.assertionResults.length,
    })),
  };
}

interface PlaywrightSuite {
  file?: string;
  specs?: { tests: { results: { duration: number }[] }[] }[];
  suites?: PlaywrightSuite[];
}

/** A spec's time in Playwright's report: its tests' durations (every attempt) added up. */
export function readPlaywrightReport(json: string): LayerTimes {
  const report = JSON.parse(json) as { suites: PlaywrightSuite[] };
  const bySpec = new Map<string, FileTime>();
  let tests = 0;
  const walk = (suite: PlaywrightSuite, file: string) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) {
        tests++;
        const entry = bySpec.get(file) ?? { name: file, seconds: 0, tests: 0 };
        entry.tests++;
        entry.seconds += test.results.reduce((sum, result) => sum + result.duration, 0) / 1000;
        bySpec.set(file, entry);
      }
    for (const child of suite.suites ?? []) walk(child, child.file ?? file);
  };
  for (const suite of report.suites) walk(suite, suite.file ?? "");
  return { tests, files: [...bySpec.values()] };
}

/** The `count` slowest, slowest first. */
export function slowest(files: FileTime[], count: number): FileTime[] {
  return [...files].sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

/** Minutes to one decimal. */
export function formatMinutes(minutes: number): string {
  return minutes.toFixed(1);
}
