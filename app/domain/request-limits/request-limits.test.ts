import { describe, expect, it } from "vitest";
import { formLimitDecision, windowStart } from "./request-limits";

describe("the per-address form limit's window", () => {
  it("starts on the minute", () => {
    expect(windowStart(new Date("2026-11-23T10:15:42.123Z")).toISOString()).toBe(
      "2026-11-23T10:15:00.000Z",
    );
  });

  it("lets `limit` posts through, then refuses, marking only the first refusal", () => {
    const now = new Date("2026-11-23T10:15:42.000Z");
    expect(formLimitDecision(1, 3, now)).toEqual({
      allowed: true,
      remaining: 2,
      resetAt: new Date("2026-11-23T10:16:00.000Z"),
      firstRefusal: false,
    });
    expect(formLimitDecision(3, 3, now)).toMatchObject({ allowed: true, remaining: 0 });
    expect(formLimitDecision(4, 3, now)).toMatchObject({
      allowed: false,
      remaining: 0,
      firstRefusal: true,
    });
    expect(formLimitDecision(5, 3, now)).toMatchObject({ allowed: false, firstRefusal: false });
  });
});
