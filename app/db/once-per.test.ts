import { describe, expect, it } from "vitest";
import { oncePer } from "./once-per";
import type { Db } from "./transaction";

describe("oncePer", () => {
  const one = {} as Db;
  const other = {} as Db;

  it("is due the first time, then not again until the period has passed, per handle", () => {
    const due = oncePer(60_000);
    const start = new Date("2026-01-01T00:00:00Z");
    expect(due(one, start)).toBe(true);
    expect(due(one, new Date(start.getTime() + 59_999))).toBe(false);
    expect(due(other, start)).toBe(true);
    expect(due(one, new Date(start.getTime() + 60_000))).toBe(true);
  });

  it("is due when forced, and a forced run starts the period again", () => {
    const due = oncePer(60_000);
    const start = new Date("2026-01-01T00:00:00Z");
    expect(due(one, start)).toBe(true);
    expect(due(one, new Date(start.getTime() + 1_000), true)).toBe(true);
    expect(due(one, new Date(start.getTime() + 60_000))).toBe(false);
  });
});
