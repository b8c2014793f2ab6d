import { describe, expect, it } from "vitest";
import {
  addressRule,
  blockEndsAt,
  EMAIL_RULE,
  latestBlock,
  minutesUntil,
  type AttemptMark,
} from "./login-throttle";

const T0 = Date.parse("2026-11-22T10:00:00.000Z");
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();
const fail = (seconds: number): AttemptMark => ({ at: iso(seconds), succeeded: false });
const ok = (seconds: number): AttemptMark => ({ at: iso(seconds), succeeded: true });
const newestFirst = (marks: AttemptMark[]) => [...marks].sort((a, b) => b.at.localeCompare(a.at));

describe("the address rule (20 attempts a minute)", () => {
  const rule = addressRule();
  const twenty = Array.from({ length: 20 }, (_, i) => (i % 2 ? ok(i) : fail(i)));

  it("blocks after 20 attempts of any outcome until a minute after the oldest of them", () => {
    expect(blockEndsAt(rule, newestFirst(twenty), at(20))).toEqual(at(60));
    expect(minutesUntil(blockEndsAt(rule, newestFirst(twenty), at(20)), at(20))).toBe(1);
    expect(blockEndsAt(rule, newestFirst(twenty.slice(1)), at(20))).toBeNull();
  });

  it("lets attempts through once the window has passed, and a raised limit takes more", () => {
    expect(blockEndsAt(rule, newestFirst(twenty), at(60))).toBeNull();
    expect(blockEndsAt(addressRule(21), newestFirst(twenty), at(20))).toBeNull();
  });

  it("does not count attempts up to an admin's lift", () => {
    expect(blockEndsAt(rule, newestFirst(twenty), at(25), iso(22))).toBeNull();
    expect(blockEndsAt(rule, newestFirst(twenty), at(25), iso(5))).toBeNull();
    expect(blockEndsAt(rule, newestFirst(twenty), at(25), iso(-1))).toEqual(at(60));
  });
});

describe("the email rule (5 failures in 15 minutes)", () => {
  it("blocks after five failures in a row, 15 minutes from the oldest", () => {
    const five = [0, 60, 120, 180, 240].map(fail);
    const end = blockEndsAt(EMAIL_RULE, newestFirst(five), at(300));
    expect(end).toEqual(at(900));
    expect(minutesUntil(end, at(300))).toBe(10);
    expect(minutesUntil(end, at(899))).toBe(1);
    expect(blockEndsAt(EMAIL_RULE, newestFirst(five), at(900))).toBeNull();
  });

  it("forgets failures before a success", () => {
    const marks = [fail(0), fail(10), ok(20), fail(30), fail(40), fail(50), fail(60)];
    expect(blockEndsAt(EMAIL_RULE, newestFirst(marks), at(70))).toBeNull();
    expect(blockEndsAt(EMAIL_RULE, newestFirst([...marks, fail(80)]), at(90))).toEqual(at(930));
  });

  it("ignores failures older than the window", () => {
    const marks = [fail(0), fail(1000), fail(1010), fail(1020), fail(1030)];
    expect(blockEndsAt(EMAIL_RULE, newestFirst(marks), at(1040))).toBeNull();
  });
});

describe("latestBlock", () => {
  it("finds the latest block in a key's history, with when it ended", () => {
    const marks = [0, 10, 20, 30, 40].map(fail);
    expect(latestBlock(EMAIL_RULE, marks, [])).toEqual({
      startedAt: iso(40),
      endsAt: iso(900),
      liftedAt: null,
    });
    // A later burst is the latest block.
    const later = [...marks, ...[2000, 2010, 2020, 2030, 2040].map(fail)];
    expect(latestBlock(EMAIL_RULE, later, [])).toEqual({
      startedAt: iso(2040),
      endsAt: iso(2900),
      liftedAt: null,
    });
  });

  it("says when an admin lifted it, and that attempts after the lift start again from zero", () => {
    const marks = [0, 10, 20, 30, 40].map(fail);
    expect(latestBlock(EMAIL_RULE, marks, [iso(100)])).toEqual({
      startedAt: iso(40),
      endsAt: iso(900),
      liftedAt: iso(100),
    });
    const after = [...marks, fail(110), fail(120)];
    expect(latestBlock(EMAIL_RULE, after, [iso(100)])?.startedAt).toBe(iso(40));
  });

  it("finds nothing when the rule never refused", () => {
    expect(latestBlock(EMAIL_RULE, [0, 10, 20, 30].map(fail), [])).toBeNull();
    expect(latestBlock(addressRule(3), [fail(0), ok(100), fail(200)], [])).toBeNull();
    expect(latestBlock(addressRule(3), [fail(0), ok(10), fail(20)], [])).toEqual({
      startedAt: iso(20),
      endsAt: iso(60),
      liftedAt: null,
    });
  });
});
