import { describe, expect, it } from "vitest";
import { niceScale, stackSegments } from "./chart-scale";

describe("chart scale", () => {
  it("picks round steps that cover the bars", () => {
    expect(niceScale(0, 1499)).toEqual({
      low: 0,
      high: 1500,
      step: 500,
      ticks: [0, 500, 1000, 1500],
    });
    expect(niceScale(0, 7).ticks).toEqual([0, 2, 4, 6, 8]);
    expect(niceScale(0, 1).ticks).toEqual([0, 1]);
    expect(niceScale(0, 100_000).ticks).toEqual([0, 50_000, 100_000]);
  });

  it("gives an empty chart a 0-to-1 axis", () => {
    expect(niceScale(0, 0).ticks).toEqual([0, 1]);
  });

  it("goes below zero when refunds exceed spending", () => {
    expect(niceScale(-300, 1000).ticks).toEqual([-500, 0, 500, 1000]);
    expect(niceScale(-250, 0).ticks).toEqual([-300, -200, -100, 0]);
  });

  it("stacks positives up and negatives down", () => {
    expect(stackSegments([100, -50, 30, 0, -20])).toEqual([
      { from: 0, to: 100 },
      { from: -50, to: 0 },
      { from: 100, to: 130 },
      { from: 130, to: 130 },
      { from: -70, to: -50 },
    ]);
  });
});
