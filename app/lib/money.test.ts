import { describe, expect, it } from "vitest";
import { formatCoins, formatEuros, formatEurosCompact } from "./money";

describe("money", () => {
  it("formats cents as euros the same way everywhere", () => {
    expect(formatEuros(450)).toBe("€4.50");
    expect(formatEuros(1_000_000)).toBe("€10,000.00");
    expect(formatEuros(399)).toBe("€3.99");
  });

  it("formats for the language without changing the amount", () => {
    // Intl puts narrow no-break spaces and, in Arabic, a right-to-left mark; compare without them.
    const plain = (text: string) => text.replace(/[\u00a0\u202f\u200f\u061c]/g, " ").trim();
    expect(plain(formatEuros(123_450, "fr"))).toBe("1 234,50 €");
    // Moroccan Arabic: Western digits, as on Moroccan price tags and invoices.
    expect(plain(formatEuros(123_450, "ar"))).toBe("1.234,50 €");
    expect(formatEuros(123_450, "ar")).toMatch(/^[^٠-٩]*$/);
    expect(plain(formatCoins(5, "ar"))).toBe("0,05");
    expect(formatEuros(450, "xx")).toBe("€4.50");
  });

  it("writes zero without a sign, however it was computed", () => {
    for (const locale of ["en", "fr", "ar"]) {
      expect(formatCoins(-0, locale)).toBe(formatCoins(0, locale));
      expect(formatEuros(-0, locale)).toBe(formatEuros(0, locale));
      expect(formatCoins(-0, locale)).not.toContain("-");
    }
  });

  it("shows coins with two decimals", () => {
    expect(formatCoins(1_000_000)).toBe("10,000.00");
    expect(formatCoins(5)).toBe("0.05");
  });

  it("shortens amounts for a chart's axis", () => {
    expect(formatEurosCompact(150_000)).toBe("€1.5K");
    expect(formatEurosCompact(4_500)).toBe("€45");
    expect(formatEurosCompact(50)).toBe("€0.5");
    expect(formatEurosCompact(-50_000)).toBe("-€500");
  });
});
