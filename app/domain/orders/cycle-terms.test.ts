import { describe, expect, it } from "vitest";
import { addMonths, BILLING_CYCLE_IDS, BILLING_CYCLES, cycleEnd } from "./orders";

/** What each group of dates shows, and its rows: the start, the months added, the end expected. */
const MONTHS_LATER: Record<string, [from: string | Date, months: number, end: string][]> = {
  "ends on the same day N months later, keeping the time of day": [
    ["2026-11-23T14:05:09.123Z", 1, "2026-12-23T14:05:09.123Z"],
    ["2026-01-15T00:00:00.000Z", 6, "2026-07-15T00:00:00.000Z"],
    [new Date("2026-03-10T08:00:00.000Z"), 12, "2027-03-10T08:00:00.000Z"],
  ],
  "crosses the year end": [
    ["2026-12-31T23:59:59.999Z", 1, "2027-01-31T23:59:59.999Z"],
    ["2026-10-05T12:00:00.000Z", 3, "2027-01-05T12:00:00.000Z"],
    ["2026-12-05T12:00:00.000Z", 25, "2029-01-05T12:00:00.000Z"],
  ],
  "clamps to the last day of a shorter month": [
    ["2027-01-31T09:30:00.000Z", 1, "2027-02-28T09:30:00.000Z"],
    ["2026-03-31T09:30:00.000Z", 1, "2026-04-30T09:30:00.000Z"],
    ["2026-08-31T09:30:00.000Z", 3, "2026-11-30T09:30:00.000Z"],
    ["2026-05-31T09:30:00.000Z", 6, "2026-11-30T09:30:00.000Z"],
    ["2026-01-30T09:30:00.000Z", 1, "2026-02-28T09:30:00.000Z"],
    // A day the target month has is kept as it is.
    ["2026-04-30T09:30:00.000Z", 1, "2026-05-30T09:30:00.000Z"],
  ],
  "knows leap years: 29 February in 2028 and 2000, not in 2027 or 2100": [
    ["2028-01-31T00:00:00.000Z", 1, "2028-02-29T00:00:00.000Z"],
    ["2000-01-31T00:00:00.000Z", 1, "2000-02-29T00:00:00.000Z"],
    ["2027-01-31T00:00:00.000Z", 1, "2027-02-28T00:00:00.000Z"],
    ["2100-01-31T00:00:00.000Z", 1, "2100-02-28T00:00:00.000Z"],
    ["2027-11-30T00:00:00.000Z", 3, "2028-02-29T00:00:00.000Z"],
    // A year from 29 February is the last day of the next February.
    ["2028-02-29T18:00:00.000Z", 12, "2029-02-28T18:00:00.000Z"],
    ["2028-02-29T18:00:00.000Z", 48, "2032-02-29T18:00:00.000Z"],
  ],
  "goes back as well as forward": [
    ["2026-03-31T00:00:00.000Z", -1, "2026-02-28T00:00:00.000Z"],
    ["2026-01-15T00:00:00.000Z", -13, "2024-12-15T00:00:00.000Z"],
  ],
};

describe("addMonths", () => {
  for (const [what, rows] of Object.entries(MONTHS_LATER))
    describe(what, () => {
      it.each(rows)("%s + %i months = %s", (from, months, end) => {
        expect(addMonths(from, months)).toBe(end);
      });
    });

  it("gives a quarter from 23 Nov until 23 Feb, not 90 days (21 Feb)", () => {
    expect(addMonths("2026-11-23T10:00:00.000Z", 3)).toBe("2027-02-23T10:00:00.000Z");
    expect(cycleEnd("2026-11-23T10:00:00.000Z", "quarterly")).toBe("2027-02-23T10:00:00.000Z");
  });

  it("refuses a date that is not one and a part of a month", () => {
    expect(() => addMonths("not a date", 1)).toThrow(RangeError);
    expect(() => addMonths("2026-01-01T00:00:00.000Z", 1.5)).toThrow(RangeError);
  });
});

describe("cycleEnd", () => {
  it("runs each cycle for its months", () => {
    const from = "2026-01-31T12:00:00.000Z";
    expect(
      Object.fromEntries(BILLING_CYCLE_IDS.map((cycle) => [cycle, cycleEnd(from, cycle)])),
    ).toEqual({
      monthly: "2026-02-28T12:00:00.000Z",
      quarterly: "2026-04-30T12:00:00.000Z",
      semiannual: "2026-07-31T12:00:00.000Z",
      annual: "2027-01-31T12:00:00.000Z",
    });
    for (const cycle of BILLING_CYCLE_IDS)
      expect(cycleEnd(from, cycle)).toBe(addMonths(from, BILLING_CYCLES[cycle].months));
  });
});
