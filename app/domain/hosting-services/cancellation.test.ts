import { describe, expect, it } from "vitest";
import {
  cancellationBadge,
  decidedBySystem,
  reasonCounts,
  refundableCents,
  refundWindowEnd,
  remainingCents,
  REFUND_WINDOW_DAYS,
  withinRefundWindow,
} from "./cancellation";

const ORDERED = "2031-05-01T10:00:00.000Z";
const at = (ms: number) => new Date(Date.parse(ORDERED) + ms);

describe("the refund window", () => {
  it("is 14 days of 24 hours from the order", () => {
    expect(REFUND_WINDOW_DAYS).toBe(14);
    expect(refundWindowEnd(ORDERED)).toBe("2031-05-15T10:00:00.000Z");
  });

  it("takes the window's last moment in and a millisecond later out", () => {
    const end = 14 * 24 * 3_600_000;
    expect(withinRefundWindow(ORDERED, at(0))).toBe(true);
    expect(withinRefundWindow(ORDERED, at(end - 1))).toBe(true);
    expect(withinRefundWindow(ORDERED, at(end))).toBe(true);
    expect(withinRefundWindow(ORDERED, at(end + 1))).toBe(false);
  });

  it("counts whole days of 24 hours, whatever a clock change does to the calendar", () => {
    // Europe's summer time starts on 30 March 2031: the window still ends 336 hours later, in UTC.
    expect(refundWindowEnd("2031-03-25T12:00:00.000Z")).toBe("2031-04-08T12:00:00.000Z");
  });
});

describe("a refund's amount", () => {
  it("is everything paid and not given back yet", () => {
    expect(
      refundableCents([
        { totalCents: 250, creditedCents: 0 },
        { totalCents: 450, creditedCents: 100 },
      ]),
    ).toBe(600);
  });

  it("gives nothing back twice: an invoice credited whole, or more, counts for nothing", () => {
    expect(remainingCents({ totalCents: 250, creditedCents: 250 })).toBe(0);
    expect(remainingCents({ totalCents: 250, creditedCents: 300 })).toBe(0);
    expect(
      refundableCents([
        { totalCents: 250, creditedCents: 300 },
        { totalCents: 100, creditedCents: 0 },
      ]),
    ).toBe(100);
    expect(refundableCents([])).toBe(0);
  });
});

describe("the system's decision", () => {
  it("takes a refund up to the ceiling in coins, not a cent more", () => {
    expect(decidedBySystem(1_000, 10)).toBe(true);
    expect(decidedBySystem(1_001, 10)).toBe(false);
    expect(decidedBySystem(0, 10)).toBe(true);
  });

  it("leaves every request to the staff under a ceiling of 0", () => {
    expect(decidedBySystem(0, 0)).toBe(false);
    expect(decidedBySystem(1, 0)).toBe(false);
  });
});

describe("what the services tab says", () => {
  it("badges only an open request", () => {
    expect(cancellationBadge("scheduled")).toBe("endsAtExpiry");
    expect(cancellationBadge("requested")).toBe("refundRequested");
    for (const state of ["withdrawn", "done", "approved", "refused"])
      expect(cancellationBadge(state)).toBeNull();
  });
});

describe("the reports' reasons", () => {
  it("lists every reason in order, with each kind's count", () => {
    const counts = reasonCounts([
      { reason: "other", kind: "refund", count: 2 },
      { reason: "tooExpensive", kind: "end_of_term", count: 3 },
      { reason: "tooExpensive", kind: "refund", count: 1 },
      { reason: "retired", kind: "refund", count: 9 },
    ]);
    expect(counts.map((row) => row.reason)).toEqual([
      "tooExpensive",
      "notUsing",
      "switchingHost",
      "technicalProblems",
      "other",
    ]);
    expect(counts[0]).toEqual({ reason: "tooExpensive", endOfTerm: 3, refund: 1 });
    expect(counts[4]).toEqual({ reason: "other", endOfTerm: 0, refund: 2 });
    expect(counts[1]).toEqual({ reason: "notUsing", endOfTerm: 0, refund: 0 });
  });
});
