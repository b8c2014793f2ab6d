import { describe, expect, it } from "vitest";
import {
  countedUntil,
  FORM_SLOT_MS,
  FORM_SLOTS,
  formLimitDecision,
  oldestCountedSlot,
  slotLengthOf,
  slotStart,
} from "./request-limits";

const at = (time: string) => new Date(`2026-11-23T10:${time}Z`);

describe("the per-address form limit", () => {
  it("counts in slots of ten seconds, a post with the six slots before its own", () => {
    expect(slotStart(at("15:42.123"))).toEqual(at("15:40.000"));
    expect(oldestCountedSlot(at("15:42.123"))).toEqual(at("14:40.000"));
    expect(FORM_SLOTS).toBe(7);
  });

  it("lets `limit` posts through, then refuses, marking only the post that crossed it", () => {
    const now = at("15:42.000");
    expect(formLimitDecision([1], 3, now)).toEqual({
      allowed: true,
      remaining: 2,
      resetAt: at("16:50.000"),
      firstRefusal: false,
    });
    expect(formLimitDecision([1, 0, 2], 3, now)).toMatchObject({ allowed: true, remaining: 0 });
    expect(formLimitDecision([1, 0, 3], 3, now)).toMatchObject({
      allowed: false,
      remaining: 0,
      firstRefusal: true,
    });
    expect(formLimitDecision([1, 0, 4], 3, now)).toMatchObject({
      allowed: false,
      firstRefusal: false,
    });
  });

  it("does not let the limit through again just after a minute's edge", () => {
    // Four posts at 15:59.9, then more at 16:00.5: the earlier slot still counts.
    expect(formLimitDecision([0, 0, 0, 0, 0, 4, 1], 4, at("16:00.500"))).toMatchObject({
      allowed: false,
      firstRefusal: true,
      // 15:50's slot passes out of the count at 17:00.
      resetAt: at("17:00.000"),
    });
    // A minute after 15:59.9 they are out of the count (the slot of 15:50 is the 7th before 17:00).
    expect(formLimitDecision([4, 0, 0, 0, 0, 0, 1], 4, at("16:55.000")).allowed).toBe(false);
    expect(formLimitDecision([0, 0, 0, 0, 0, 0, 1], 4, at("17:00.000")).allowed).toBe(true);
  });

  it("names the first moment a post is allowed again, and a post then is allowed", () => {
    const cases: Array<{ counts: number[]; limit: number; now: Date; resetAt: Date }> = [
      // Room once the oldest slot has passed.
      { counts: [2, 1, 0, 0, 0, 0, 2], limit: 4, now: at("16:05.000"), resetAt: at("16:10.000") },
      // Room once the two oldest have.
      { counts: [2, 1, 0, 0, 0, 0, 2], limit: 3, now: at("16:05.000"), resetAt: at("16:20.000") },
      // This slot alone is over: once it has passed too, 70 s after it began.
      { counts: [0, 0, 0, 0, 0, 0, 5], limit: 4, now: at("16:01.000"), resetAt: at("17:10.000") },
    ];
    for (const { counts, limit, now, resetAt } of cases) {
      const decision = formLimitDecision(counts, limit, now);
      expect(decision.allowed).toBe(false);
      expect(decision.resetAt).toEqual(resetAt);
      // A post sent then, with nothing sent in between, is allowed; one in the slot before, not.
      const passed = (resetAt.getTime() - slotStart(now).getTime()) / FORM_SLOT_MS;
      const shifted = (by: number) => [...counts.slice(by), ...Array<number>(by).fill(0)];
      const then = shifted(passed);
      then[FORM_SLOTS - 1]! += 1;
      expect(formLimitDecision(then, limit, resetAt).allowed).toBe(true);
      const before = shifted(passed - 1);
      before[FORM_SLOTS - 1]! += 1;
      const justBefore = new Date(resetAt.getTime() - 1);
      expect(formLimitDecision(before, limit, justBefore).allowed).toBe(false);
    }
  });

  it("never lets more than the limit through in any minute, at any pace or timing", () => {
    // Senders that post in bursts at chosen offsets, waiting as Retry-After says when refused.
    for (const limit of [1, 3, 4, 60]) {
      for (const [offset, gap] of [
        [0, 1],
        [9_999, 1],
        [9_900, 250],
        [5_000, 997],
        [59_999, 13_000],
      ] as const) {
        const slots = new Map<number, number>();
        const allowedAt: number[] = [];
        let t = at("00:00.000").getTime() + offset;
        const end = t + 5 * 60_000;
        while (t < end) {
          const now = new Date(t);
          const slot = slotStart(now).getTime();
          slots.set(slot, (slots.get(slot) ?? 0) + 1);
          const counts = Array.from(
            { length: FORM_SLOTS },
            (_, i) => slots.get(slot - (FORM_SLOTS - 1 - i) * FORM_SLOT_MS) ?? 0,
          );
          const decision = formLimitDecision(counts, limit, now);
          if (decision.allowed) {
            allowedAt.push(t);
            t += gap;
          } else {
            expect(decision.resetAt.getTime()).toBeGreaterThan(t);
            expect(decision.resetAt.getTime() - t).toBeLessThanOrEqual(70_000);
            t = decision.resetAt.getTime();
          }
        }
        const label = `limit ${limit}, offset ${offset}, gap ${gap}`;
        for (const [index, first] of allowedAt.entries()) {
          const inMinute = allowedAt.slice(index).filter((other) => other < first + 60_000);
          expect(inMinute.length, label).toBeLessThanOrEqual(limit);
        }
        // Not refusing everything: a sender that waits as told posts the limit every 100 s or so.
        expect(allowedAt.length, label).toBeGreaterThanOrEqual(
          Math.min(limit * 3, Math.floor((5 * 60_000) / gap)),
        );
      }
    }
  });

  it("counts a longer window the same way: seven slots of a sixth of it", () => {
    const tenMinutes = slotLengthOf(600_000);
    expect(tenMinutes).toBe(100_000);
    expect(slotLengthOf(60_000)).toBe(FORM_SLOT_MS);
    expect(slotLengthOf(86_400_000)).toBe(4 * 3_600_000);
    expect(() => slotLengthOf(1_000_001)).toThrow(RangeError);
    const now = at("15:42.000");
    expect(slotStart(now, tenMinutes)).toEqual(at("15:00.000"));
    expect(oldestCountedSlot(now, tenMinutes)).toEqual(at("05:00.000"));
    expect(countedUntil(at("05:00.000"), tenMinutes)).toEqual(at("16:40.000"));
    // Five in the slots of ten minutes: a sixth is refused until the oldest slot with posts has passed.
    expect(formLimitDecision([2, 0, 0, 0, 0, 0, 4], 5, now, tenMinutes)).toMatchObject({
      allowed: false,
      resetAt: at("16:40.000"),
    });
    expect(formLimitDecision([0, 0, 0, 0, 0, 1, 4], 5, now, tenMinutes).allowed).toBe(true);
  });
});
