import { describe, expect, it } from "vitest";
import { isProofFresh } from "./permissions";
import {
  coinChangeNeedsProof,
  PROOF_FAILURE_LIMIT,
  proofBlockEnd,
  proofChecks,
} from "./fresh-proof";

const at = (iso: string) => new Date(iso);
const failure = (iso: string) => ({ at: iso, succeeded: false });

describe("coinChangeNeedsProof", () => {
  it("asks above the threshold either way, never at it or under it", () => {
    expect(coinChangeNeedsProof(100_00, 100)).toBe(false);
    expect(coinChangeNeedsProof(-100_00, 100)).toBe(false);
    expect(coinChangeNeedsProof(5, 100)).toBe(false);
    expect(coinChangeNeedsProof(100_01, 100)).toBe(true);
    expect(coinChangeNeedsProof(-100_01, 100)).toBe(true);
    // A threshold of 0: any change asks.
    expect(coinChangeNeedsProof(1, 0)).toBe(true);
    expect(coinChangeNeedsProof(0, 0)).toBe(false);
  });
});

describe("proofChecks", () => {
  it("tries the password alone without two-factor sign-in", () => {
    expect(proofChecks("123456", false)).toEqual(["password"]);
    expect(proofChecks("ABCDE-23456", false)).toEqual(["password"]);
  });

  it("tries six digits as the app's code first, anything as a backup code, the password last", () => {
    expect(proofChecks("123456", true)).toEqual(["totp", "backup", "password"]);
    expect(proofChecks("123 456", true)).toEqual(["totp", "backup", "password"]);
    expect(proofChecks("١٢٣٤٥٦", true)).toEqual(["totp", "backup", "password"]);
    expect(proofChecks("ABCDE-23456", true)).toEqual(["backup", "password"]);
    expect(proofChecks("a long passphrase", true)).toEqual(["backup", "password"]);
  });
});

describe("proofBlockEnd", () => {
  const now = at("2026-11-28T10:00:00.000Z");
  const fiveWrong = [
    failure("2026-11-28T09:59:00.000Z"),
    failure("2026-11-28T09:58:00.000Z"),
    failure("2026-11-28T09:57:00.000Z"),
    failure("2026-11-28T09:56:00.000Z"),
    failure("2026-11-28T09:50:00.000Z"),
  ];

  it("refuses after five failures in 15 minutes, until the oldest of them is 15 minutes old", () => {
    expect(PROOF_FAILURE_LIMIT).toBe(5);
    expect(proofBlockEnd(fiveWrong, now)).toEqual(at("2026-11-28T10:05:00.000Z"));
    expect(proofBlockEnd(fiveWrong.slice(0, 4), now)).toBeNull();
    expect(proofBlockEnd(fiveWrong, at("2026-11-28T10:05:00.000Z"))).toBeNull();
  });

  it("counts no failure from before an admin lifted the block", () => {
    expect(proofBlockEnd(fiveWrong, now, "2026-11-28T09:55:00.000Z")).toBeNull();
    expect(proofBlockEnd(fiveWrong, now, "2026-11-28T09:40:00.000Z")).not.toBeNull();
  });
});

describe("isProofFresh (the 15 minutes)", () => {
  it("is fresh for less than 15 minutes after the proof, stale from then on", () => {
    const proven = "2026-11-28T10:00:00.000Z";
    expect(isProofFresh(proven, at("2026-11-28T10:14:59.999Z"))).toBe(true);
    expect(isProofFresh(proven, at("2026-11-28T10:15:00.000Z"))).toBe(false);
    expect(isProofFresh(null, at("2026-11-28T10:00:00.000Z"))).toBe(false);
  });
});
