import { describe, expect, it } from "vitest";
import { readAmountCents } from "./field-amounts";
import { readLegacyDate, readSpecNumber } from "./field-loose";
import { readEmail, readLegacyId } from "./field-readers";

describe("amounts", () => {
  it.each([
    [4.5, 450],
    [5, 500],
    ["4.50", 450],
    ["4,5", 450],
    [" 25 ", 2500],
    ["12.300", 1230],
    [0.1 + 0.2, 30],
    [4.35, 435],
    [10000, 1_000_000],
    [-5, -500],
    ["-0.5", -50],
    [0, 0],
  ])("%j is %i cents, exactly", (value, cents) => {
    expect(readAmountCents(value)).toEqual({ ok: true, value: cents });
  });

  it("treats a missing amount as missing", () => {
    for (const value of [undefined, null, "", "  "])
      expect(readAmountCents(value)).toEqual({ ok: true, value: null });
  });

  it.each([
    [4.275, "more than two decimals"],
    ["4.275", "more than two decimals"],
    ["abc", "is not an amount"],
    ["5 €", "is not an amount"],
    [true, "found true"],
    [[5], "found a list"],
    [1e9, "more than €1,000,000"],
    [Number.NaN, "is not an amount"],
  ])("refuses %j (%s)", (value, message) => {
    const result = readAmountCents(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });
});

describe("field readers", () => {
  it("reads ids as text or numbers, the same id either way", () => {
    expect(readLegacyId("1718000000001")).toEqual({ ok: true, value: "1718000000001" });
    expect(readLegacyId(1718000000001)).toEqual({ ok: true, value: "1718000000001" });
    expect(readLegacyId(undefined)).toEqual({ ok: true, value: null });
    expect(readLegacyId({ id: 1 }).ok).toBe(false);
  });

  it("normalises emails and refuses what is not one", () => {
    expect(readEmail("  Youssef.Amrani@Example.COM ")).toEqual({
      ok: true,
      value: "youssef.amrani@example.com",
    });
    expect(readEmail("bob@").ok).toBe(false);
    expect(readEmail("admin@localhost").ok).toBe(false);
    expect(readEmail(undefined).ok).toBe(false);
    expect(readEmail(12).ok).toBe(false);
  });

  it("keeps valid times and drops the rest", () => {
    expect(readLegacyDate("2024-06-10T06:13:20.001Z")).toBe("2024-06-10T06:13:20.001Z");
    expect(readLegacyDate(1718000000001)).toBe("2024-06-10T06:13:20.001Z");
    expect(readLegacyDate("1718000000001")).toBe("2024-06-10T06:13:20.001Z");
    expect(readLegacyDate(1718000000)).toBe("2024-06-10T06:13:20.000Z");
    expect(readLegacyDate("not a date")).toBeNull();
    expect(readLegacyDate({})).toBeNull();
    expect(readLegacyDate(-1)).toBeNull();
  });

  it("reads specs written as text", () => {
    expect(readSpecNumber("2GB")).toBe(2);
    expect(readSpecNumber("250GB NVMe")).toBe(250);
    expect(readSpecNumber("1 vCPU")).toBe(1);
    expect(readSpecNumber("512MB")).toBe(0.5);
    expect(readSpecNumber(6)).toBe(6);
    expect(readSpecNumber("Unlimited")).toBeNull();
  });
});
