import { describe, expect, it } from "vitest";
import { cpuIndex, describeCpu, probeCpu, summariseCpu } from "./cpu-probe";

describe("CPU probe", () => {
  it("reads a positive index", () => {
    expect(cpuIndex(50)).toBeGreaterThan(0);
  });

  it("summarises its rounds as lowest, median and highest", () => {
    const reading = probeCpu({ rounds: 3, durationMs: 20 });
    expect(reading.rounds).toBe(3);
    expect(reading.min).toBeLessThanOrEqual(reading.median);
    expect(reading.median).toBeLessThanOrEqual(reading.max);
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
