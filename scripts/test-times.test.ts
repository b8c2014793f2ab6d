import { describe, expect, it } from "vitest";
import { readPlaywrightReport, readVitestReport, slowest } from "./test-times";

describe("test times", () => {
  it("reads each file's time and tests from Vitest's JSON report", () => {
    const json = JSON.stringify({
      numTotalTests: 3,
      testResults: [
        {
          name: `${process.cwd()}/app/a.test.ts`,
          startTime: 1000,
          endTime: 3500,
          assertionResults: [{}, {}],
        },
        { name: "/elsewhere/b.test.ts", startTime: 0, endTime: 500, assertionResults: [{}] },
      ],
    });
    expect(readVitestReport(json)).toEqual({
      tests: 3,
      files: [
        { name: "app/a.test.ts", seconds: 2.5, tests: 2 },
        { name: "/elsewhere/b.test.ts", seconds: 0.5, tests: 1 },
      ],
    });
  });

  it("adds up a spec's tests, nested suites and retries from Playwright's JSON report", () => {
    const json = JSON.stringify({
      suites: [
        {
          file: "login.spec.ts",
          specs: [{ tests: [{ results: [{ duration: 1000 }, { duration: 500 }] }] }],
          suites: [{ specs: [{ tests: [{ results: [{ duration: 2000 }] }] }] }],
        },
        { file: "admin.spec.ts", specs: [{ tests: [{ results: [{ duration: 4000 }] }] }] },
      ],
    });
    const report = readPlaywrightReport(json);
    expect(report.tests).toBe(3);
    expect(report.files).toEqual([
      { name: "login.spec.ts", seconds: 3.5, tests: 2 },
      { name: "admin.spec.ts", seconds: 4, tests: 1 },
    ]);
    expect(slowest(report.files, 1)).toEqual([{ name: "admin.spec.ts", seconds: 4, tests: 1 }]);
  });
});
