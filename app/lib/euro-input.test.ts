import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { centsToEuroInput, parseEuroInput } from "./euro-input";

const MAX = 1_000_000;

describe("euros typed by an admin", () => {
  it("reads dots, commas and a euro sign exactly into cents", () => {
    const cents = (text: string) => {
      const result = parseEuroInput(text, MAX);
      return result.ok ? result.cents : result.error;
    };
    expect(cents("2.5")).toBe(250);
    expect(cents("2,50")).toBe(250);
    expect(cents("4.99")).toBe(499);
    expect(cents("0.29")).toBe(29);
    expect(cents("1.1")).toBe(110);
    expect(cents("12")).toBe(1200);
    expect(cents(" €12.30 ")).toBe(1230);
    expect(cents("7,05 €")).toBe(705);
    expect(cents("+3")).toBe(300);
    expect(cents("007.10")).toBe(710);
    expect(cents("0")).toBe(0);
    expect(cents("-0")).toBe(0);
    expect(cents("10000")).toBe(1_000_000);
    // Copied from a formatted French or Arabic price.
    expect(cents("4,99\u00a0€")).toBe(499);
    expect(cents("\u200f4,99\u00a0€")).toBe(499);
  });

  it("refuses what is not an amount, with the reason", () => {
    const error = (text: string) => {
      const result = parseEuroInput(text, MAX);
      return result.ok ? result.cents : result.error;
    };
    expect(error("")).toBe("required");
    expect(error("  ")).toBe("required");
    expect(error("€")).toBe("required");
    expect(error("-1")).toBe("negative");
    expect(error("-0.01")).toBe("negative");
    expect(error("4.999")).toBe("decimals");
    expect(error("4,000")).toBe("decimals");
    expect(error("10000.01")).toBe("tooLarge");
    expect(error("99999999999999999999")).toBe("tooLarge");
    for (const text of [
      "abc",
      "1e3",
      "1.2.3",
      "1,000.00",
      "Infinity",
      "NaN",
      "0x10",
      ".5",
      "5.",
      "1 000",
      "--1",
    ])
      expect(error(text), text).toBe("invalid");
  });

  it("gives back what it formats, for every amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX }), (cents) => {
        expect(parseEuroInput(centsToEuroInput(cents), MAX)).toEqual({ ok: true, cents });
        expect(parseEuroInput(centsToEuroInput(cents).replace(".", ","), MAX)).toEqual({
          ok: true,
          cents,
        });
      }),
    );
    expect(centsToEuroInput(450)).toBe("4.50");
    expect(centsToEuroInput(5)).toBe("0.05");
  });
});
