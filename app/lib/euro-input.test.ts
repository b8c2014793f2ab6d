import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { centsToEuroInput, parseEuroInput, type EuroInputError } from "./euro-input";

const MAX = 1_000_000;

/** The cents of a typed amount, or why it was refused. */
const read = (text: string) => {
  const result = parseEuroInput(text, MAX);
  return result.ok ? result.cents : result.error;
};

describe("euros typed by an admin", () => {
  it.each<[string, number]>([
    ["2.5", 250],
    ["2,50", 250],
    ["4.99", 499],
    ["0.29", 29],
    ["1.1", 110],
    ["12", 1200],
    [" €12.30 ", 1230],
    ["7,05 €", 705],
    ["+3", 300],
    ["007.10", 710],
    ["0", 0],
    ["-0", 0],
    ["10000", 1_000_000],
    // Copied from a formatted French or Arabic price.
    ["4,99\u00a0€", 499],
    ["\u200f4,99\u00a0€", 499],
    // Typed on an Arabic keyboard.
    ["٤٫٩٩", 499],
    ["١٢", 1200],
  ])("reads %j exactly into cents (dots, commas and a euro sign): %i", (text, cents) => {
    expect(read(text)).toBe(cents);
  });

  it.each<[string, EuroInputError]>([
    ["", "required"],
    ["  ", "required"],
    ["€", "required"],
    ["-1", "negative"],
    ["-0.01", "negative"],
    ["4.999", "decimals"],
    ["4,000", "decimals"],
    ["10000.01", "tooLarge"],
    ["99999999999999999999", "tooLarge"],
    ["abc", "invalid"],
    ["1e3", "invalid"],
    ["1.2.3", "invalid"],
    ["1,000.00", "invalid"],
    ["Infinity", "invalid"],
    ["NaN", "invalid"],
    ["0x10", "invalid"],
    [".5", "invalid"],
    ["5.", "invalid"],
    ["1 000", "invalid"],
    ["--1", "invalid"],
  ])("refuses %j, which is not an amount, with the reason: %s", (text, reason) => {
    expect(read(text)).toBe(reason);
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
