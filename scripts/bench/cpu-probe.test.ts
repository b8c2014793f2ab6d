import { describe, expect, it } from "vitest";
import { cpuIndex, describeCpu, probeCpu, summariseCpu } from "./cpu-probe";

describe("CPU probe", () => {
  /** A clock's readings for one round: its start, then one after each build, `msPerBuild` apart. */
  const round = (start: number, msPerBuild: number, durationMs: number) =>
    Array.from({ length: durationMs / msPerBuild + 1 }, (_, i) => start + i * msPerBuild);

  it("reads builds a second divided by ten, building until the duration has passed", () => {
    // 2 ms a build for 20 ms: ten builds, 500 a second.
    const readings = round(1_000, 2, 20);
    expect(cpuIndex(20, () => readings.shift()!)).toBe(50);
    expect(readings).toEqual([]);
    // The real clock, as the benchmarks read it.
    expect(cpuIndex(5)).toBeGreaterThan(0);
  });

  it("summarises its rounds as lowest, median and highest", () => {
    // Three rounds at 1, 4 and 2 ms a build: indexes 100, 25 and 50.
    const readings = [...round(0, 1, 20), ...round(100, 4, 20), ...round(200, 2, 20)];
    expect(probeCpu({ rounds: 3, durationMs: 20, now: () => readings.shift()! })).toEqual({
      rounds: 3,
      min: 25,
      median: 50,
      max: 100,
    });
    expect(readings).toEqual([]);
    expect(summariseCpu([1200, 997, 1591, 1455, 1210])).toEqual({
      rounds: 5,
      min: 997,
      median: 1210,
      max: 1591,
    });
    expect(() => summariseCpu([])).toThrow();
  });

  it("says when it read and on which scale", () => {
    expect(describeCpu("before", { rounds: 5, min: 997, median: 1210, max: 1591 })).toBe(
      "Host CPU before: index 1210 (median of 5; 997 to 1591; Lighthouse's benchmarkIndex scale, under 1000 it calls a device slow).",
    );
  });
});
