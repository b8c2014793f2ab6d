import { describe, expect, it } from "vitest";
import { formatCoins, formatEuros } from "./money";

describe("money", () => {
  it("formats cents as euros the same way everywhere", () => {
    expect(formatEuros(450)).toBe("€4.50");
    expect(formatEuros(1_000_000)).toBe("€10,000.00");
    expect(formatEuros(399)).toBe("€3.99");
  });

  it("shows coins with two decimals", () => {
    expect(formatCoins(1_000_000)).toBe("10,000.00");
    expect(formatCoins(5)).toBe("0.05");
  });
});
