import { describe, expect, it } from "vitest";
import {
  addressRule,
  blockEndsAt,
  EMAIL_CEILING_RULE,
  isKnownAddress,
  latestBlock,
  liftKeysFor,
  minutesUntil,
  PAIR_RULE,
  pairKey,
  signInBlockEnd,
  splitPairKey,
  type AttemptMark,
  type SignInHistory,
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

describe("the pair rule (5 failures of one email from one address in 15 minutes)", () => {
  it("blocks after five failures, 15 minutes from the oldest", () => {
    const five = [0, 60, 120, 180, 240].map(fail);
    const end = blockEndsAt(PAIR_RULE, newestFirst(five), at(300));
    expect(end).toEqual(at(900));
    expect(minutesUntil(end, at(300))).toBe(10);
    expect(minutesUntil(end, at(899))).toBe(1);
    expect(blockEndsAt(PAIR_RULE, newestFirst(five), at(900))).toBeNull();
  });

  it("counts only failures", () => {
    const marks = [fail(0), fail(10), ok(20), fail(30), fail(40), fail(45)];
    expect(blockEndsAt(PAIR_RULE, newestFirst(marks), at(50))).toEqual(at(900));
    expect(blockEndsAt(PAIR_RULE, newestFirst(marks.slice(1)), at(50))).toBeNull();
  });

  it("ignores failures older than the window", () => {
    const marks = [fail(0), fail(1000), fail(1010), fail(1020), fail(1030)];
    expect(blockEndsAt(PAIR_RULE, newestFirst(marks), at(1040))).toBeNull();
  });
});

describe("the email ceiling (50 failures from all addresses in 15 minutes)", () => {
  const fifty = Array.from({ length: 50 }, (_, i) => fail(i * 10));

  it("blocks after fifty failures, 15 minutes from the oldest, and not before", () => {
    expect(EMAIL_CEILING_RULE.limit).toBe(50);
    expect(blockEndsAt(EMAIL_CEILING_RULE, newestFirst(fifty), at(500))).toEqual(at(900));
    expect(blockEndsAt(EMAIL_CEILING_RULE, newestFirst(fifty.slice(1)), at(500))).toBeNull();
  });

  it("is not cleared by a success", () => {
    const marks = [...fifty.slice(0, 25), ok(251), ...fifty.slice(25)];
    expect(blockEndsAt(EMAIL_CEILING_RULE, newestFirst(marks), at(500))).toEqual(at(900));
  });
});

describe("signInBlockEnd: the three rules together", () => {
  const none: SignInHistory = {
    addressAttempts: [],
    pairFailures: [],
    emailFailures: [],
    pairLastSuccessAt: null,
    lifts: {},
  };
  const pairFive = newestFirst([0, 10, 20, 30, 40].map(fail));
  const ceiling = newestFirst(Array.from({ length: 50 }, (_, i) => fail(i)));
  const twenty = newestFirst(Array.from({ length: 20 }, (_, i) => fail(i)));

  it("lets a first attempt through, and refuses on any rule, the latest end winning", () => {
    expect(signInBlockEnd(none, at(50))).toBeNull();
    expect(signInBlockEnd({ ...none, pairFailures: pairFive }, at(50))).toEqual(at(900));
    expect(signInBlockEnd({ ...none, emailFailures: ceiling }, at(50))).toEqual(at(900));
    expect(signInBlockEnd({ ...none, addressAttempts: twenty }, at(25))).toEqual(at(60));
    expect(signInBlockEnd({ ...none, addressAttempts: twenty }, at(25), 21)).toBeNull();
    expect(
      signInBlockEnd({ ...none, addressAttempts: twenty, pairFailures: pairFive }, at(45)),
    ).toEqual(at(900));
  });

  it("never refuses an address that signed in to the account in the last 30 days on the email rules", () => {
    const known = { ...none, pairFailures: pairFive, emailFailures: ceiling };
    expect(signInBlockEnd({ ...known, pairLastSuccessAt: iso(-29 * 86_400) }, at(50))).toBeNull();
    expect(signInBlockEnd({ ...known, pairLastSuccessAt: iso(-31 * 86_400) }, at(50))).toEqual(
      at(900),
    );
    // The address rule still applies to it.
    expect(
      signInBlockEnd({ ...known, addressAttempts: twenty, pairLastSuccessAt: iso(-60) }, at(25)),
    ).toEqual(at(60));
  });

  it("counts a pair's failures only after its own, its email's or its address's lift", () => {
    const pair = { ...none, pairFailures: pairFive };
    for (const kind of ["pair", "email", "address"] as const)
      expect(signInBlockEnd({ ...pair, lifts: { [kind]: iso(45) } }, at(50))).toBeNull();
    // A lift of the email ends the ceiling; one of the pair or the address does not.
    const all = { ...none, emailFailures: ceiling };
    expect(signInBlockEnd({ ...all, lifts: { email: iso(55) } }, at(60))).toBeNull();
    expect(signInBlockEnd({ ...all, lifts: { pair: iso(55), address: iso(55) } }, at(60))).toEqual(
      at(900),
    );
  });
});

describe("keys and known addresses", () => {
  it("splits a pair's key at its last space, and lists what lifts a key", () => {
    const key = pairKey("a b@example.com", "2001:db8::1");
    expect(splitPairKey(key)).toEqual({ email: "a b@example.com", address: "2001:db8::1" });
    expect(splitPairKey("nospace")).toBeNull();
    expect(liftKeysFor("pair", key)).toEqual([
      { kind: "pair", key },
      { kind: "email", key: "a b@example.com" },
      { kind: "address", key: "2001:db8::1" },
    ]);
    expect(liftKeysFor("email", "x@example.com")).toEqual([
      { kind: "email", key: "x@example.com" },
    ]);
  });

  it("knows an address for 30 days after a success, not for one in the future", () => {
    expect(isKnownAddress(null, at(0))).toBe(false);
    expect(isKnownAddress(iso(-30 * 86_400 + 1), at(0))).toBe(true);
    expect(isKnownAddress(iso(-30 * 86_400), at(0))).toBe(false);
    expect(isKnownAddress(iso(1), at(0))).toBe(false);
  });
});

describe("latestBlock", () => {
  it("finds the latest block in a key's history, with when it ended", () => {
    const marks = [0, 10, 20, 30, 40].map(fail);
    expect(latestBlock(PAIR_RULE, marks, [])).toEqual({
      startedAt: iso(40),
      endsAt: iso(900),
      liftedAt: null,
    });
    // A later burst is the latest block.
    const later = [...marks, ...[2000, 2010, 2020, 2030, 2040].map(fail)];
    expect(latestBlock(PAIR_RULE, later, [])).toEqual({
      startedAt: iso(2040),
      endsAt: iso(2900),
      liftedAt: null,
    });
  });

  it("says when an admin lifted it, and that attempts after the lift start again from zero", () => {
    const marks = [0, 10, 20, 30, 40].map(fail);
    expect(latestBlock(PAIR_RULE, marks, [iso(100)])).toEqual({
      startedAt: iso(40),
      endsAt: iso(900),
      liftedAt: iso(100),
    });
    const after = [...marks, fail(110), fail(120)];
    expect(latestBlock(PAIR_RULE, after, [iso(100)])?.startedAt).toBe(iso(40));
  });

  it("finds no block of a pair while its address was known, and one once it no longer was", () => {
    const five = [0, 10, 20, 30, 40].map(fail);
    // A success inside the look-back, before the failures.
    expect(latestBlock(PAIR_RULE, [ok(-5), ...five], [])).toBeNull();
    // A success before the look-back, given apart.
    expect(latestBlock(PAIR_RULE, five, [], iso(-86_400))).toBeNull();
    expect(latestBlock(PAIR_RULE, five, [], iso(-31 * 86_400))?.startedAt).toBe(iso(40));
    // The ceiling is per email: a success does not clear it.
    expect(latestBlock(EMAIL_CEILING_RULE, [ok(-5), ...five], [])).toBeNull();
  });

  it("finds nothing when the rule never refused", () => {
    expect(latestBlock(PAIR_RULE, [0, 10, 20, 30].map(fail), [])).toBeNull();
    expect(latestBlock(addressRule(3), [fail(0), ok(100), fail(200)], [])).toBeNull();
    expect(latestBlock(addressRule(3), [fail(0), ok(10), fail(20)], [])).toEqual({
      startedAt: iso(20),
      endsAt: iso(60),
      liftedAt: null,
    });
  });
});
