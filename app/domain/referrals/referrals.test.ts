import { describe, expect, it } from "vitest";
import {
  DEFAULT_REFERRAL_SETTINGS,
  maskEmail,
  maskName,
  monthOf,
  normalizeReferralCode,
  parsePercent,
  pastRefundWindow,
  readFlags,
  referralCodeFrom,
  referralLink,
  rewardCents,
  splitByCap,
} from "./referrals";
import { storedReferralSettingsSchema } from "./referrals.schemas";

describe("rewardCents", () => {
  it("takes a percentage of the price in whole cents, a half cent rounded up", () => {
    expect(rewardCents(1000, 1000)).toBe(100);
    // 10 % of 4.95 is 49.5 cents: 50.
    expect(rewardCents(495, 1000)).toBe(50);
    // 10 % of 4.94 is 49.4 cents: 49.
    expect(rewardCents(494, 1000)).toBe(49);
    // 7.5 % of 3.33 is 24.975 cents: 25.
    expect(rewardCents(333, 750)).toBe(25);
    // 0.01 % of 49.99 is 0.4999 cents: 0.
    expect(rewardCents(4999, 1)).toBe(0);
    expect(rewardCents(5000, 1)).toBe(1);
    expect(rewardCents(1234, 10_000)).toBe(1234);
  });

  it("gives nothing for a free order or a zero percentage", () => {
    expect(rewardCents(0, 1000)).toBe(0);
    expect(rewardCents(1000, 0)).toBe(0);
  });

  it("stays an integer for the largest order", () => {
    const reward = rewardCents(100_000_000, 9_999);
    expect(Number.isInteger(reward)).toBe(true);
    expect(reward).toBe(99_990_000);
  });
});

describe("splitByCap", () => {
  it("pays in full under the cap, up to it across it, and nothing past it", () => {
    expect(splitByCap(300, 0, 1000)).toEqual({ paidCents: 300, unpaidCents: 0 });
    expect(splitByCap(300, 700, 1000)).toEqual({ paidCents: 300, unpaidCents: 0 });
    expect(splitByCap(300, 800, 1000)).toEqual({ paidCents: 200, unpaidCents: 100 });
    expect(splitByCap(300, 1000, 1000)).toEqual({ paidCents: 0, unpaidCents: 300 });
    expect(splitByCap(300, 1200, 1000)).toEqual({ paidCents: 0, unpaidCents: 300 });
  });

  it("has no cap at 0", () => {
    expect(splitByCap(300, 1_000_000, 0)).toEqual({ paidCents: 300, unpaidCents: 0 });
  });
});

describe("the refund window", () => {
  it("is past a millisecond after its last moment, not at it", () => {
    const ordered = "2026-11-01T10:00:00.000Z";
    expect(pastRefundWindow(ordered, new Date("2026-11-15T10:00:00.000Z"))).toBe(false);
    expect(pastRefundWindow(ordered, new Date("2026-11-15T10:00:00.001Z"))).toBe(true);
  });

  it("counts a reward in its UTC month", () => {
    expect(monthOf(new Date("2026-11-30T23:59:59.999Z"))).toBe("2026-11");
    expect(monthOf(new Date("2026-12-01T00:00:00.000Z"))).toBe("2026-12");
  });
});

describe("codes and links", () => {
  it("makes a code of 8 unambiguous characters and reads one back in any case", () => {
    const code = referralCodeFrom(new Uint8Array([0, 1, 2, 3, 30, 31, 62, 255]));
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(normalizeReferralCode(` ${code.toLowerCase()} `)).toBe(code);
    expect(normalizeReferralCode("ABCD1234")).toBeNull();
    expect(normalizeReferralCode("ABC")).toBeNull();
    expect(normalizeReferralCode(undefined)).toBeNull();
  });

  it("links the home page with the code", () => {
    expect(referralLink("https://hostfront.test/", "ABCDEFGH")).toBe(
      "https://hostfront.test/?ref=ABCDEFGH",
    );
  });
});

describe("masking", () => {
  it("hides most of a name and an address", () => {
    expect(maskName("Sara Benali")).toBe("Sara B***");
    expect(maskName("Mohammed El Amrani")).toBe("Moha*** E*** A***");
    expect(maskName("  ")).toBe("***");
    expect(maskEmail("sara@gmail.com")).toBe("s***@g***.com");
    expect(maskEmail("not-an-address")).toBe("***");
  });
});

describe("settings", () => {
  it("reads a percentage as basis points, refusing what is not one", () => {
    expect(parsePercent("10")).toBe(1000);
    expect(parsePercent("7,5")).toBe(750);
    expect(parsePercent("0.01")).toBe(1);
    expect(parsePercent("100")).toBe(10_000);
    expect(parsePercent("100.01")).toBeNull();
    expect(parsePercent("-1")).toBeNull();
    expect(parsePercent("1.234")).toBeNull();
  });

  it("falls back to the defaults for what is stored wrong", () => {
    expect(storedReferralSettingsSchema.parse({})).toEqual(DEFAULT_REFERRAL_SETTINGS);
    expect(
      storedReferralSettingsSchema.parse({
        enabled: false,
        percentBasisPoints: -3,
        monthlyCapCents: "x",
      }),
    ).toEqual({ ...DEFAULT_REFERRAL_SETTINGS, enabled: false });
  });

  it("reads only the flags it knows", () => {
    expect(readFlags('["sameProof","other"]')).toEqual(["sameProof"]);
    expect(readFlags("not json")).toEqual([]);
  });
});
