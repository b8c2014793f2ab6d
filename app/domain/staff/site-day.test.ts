import { describe, expect, it } from "vitest";
import { siteDay } from "./site-day";

const iso = (window: { start: Date; end: Date }) => [
  window.start.toISOString(),
  window.end.toISOString(),
];

describe("siteDay", () => {
  it("is the day in the site's zone, not in UTC", () => {
    // 23:30 UTC on 14 June is 00:30 on the 15th in Casablanca (UTC+1 outside Ramadan).
    expect(iso(siteDay("Africa/Casablanca", new Date("2026-06-14T23:30:00Z")))).toEqual([
      "2026-06-14T23:00:00.000Z",
      "2026-06-15T23:00:00.000Z",
    ]);
    expect(iso(siteDay("UTC", new Date("2026-06-14T23:30:00Z")))).toEqual([
      "2026-06-14T00:00:00.000Z",
      "2026-06-15T00:00:00.000Z",
    ]);
  });

  it("counts midnight itself in the day it opens, and the last millisecond in the day it ends", () => {
    expect(iso(siteDay("UTC", new Date("2026-06-15T00:00:00.000Z")))).toEqual([
      "2026-06-15T00:00:00.000Z",
      "2026-06-16T00:00:00.000Z",
    ]);
    expect(iso(siteDay("UTC", new Date("2026-06-15T23:59:59.999Z")))).toEqual([
      "2026-06-15T00:00:00.000Z",
      "2026-06-16T00:00:00.000Z",
    ]);
  });

  it("follows the clocks: a 23-hour day, and a day whose midnight does not exist", () => {
    // Paris moves to summer time on 29 March 2026 at 02:00.
    expect(iso(siteDay("Europe/Paris", new Date("2026-03-29T12:00:00Z")))).toEqual([
      "2026-03-28T23:00:00.000Z",
      "2026-03-29T22:00:00.000Z",
    ]);
    // Santiago jumps from 00:00 to 01:00 on 6 September 2026: the day starts at 01:00 (04:00 UTC).
    expect(iso(siteDay("America/Santiago", new Date("2026-09-06T12:00:00Z")))).toEqual([
      "2026-09-06T04:00:00.000Z",
      "2026-09-07T03:00:00.000Z",
    ]);
  });
});
