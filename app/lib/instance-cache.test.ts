import { describe, expect, it } from "vitest";
import { perInstance } from "./instance-cache";

describe("perInstance", () => {
  it("makes a value once per owner and key", () => {
    const cache = new WeakMap<object, Map<string, number>>();
    const a = {};
    const b = {};
    let made = 0;
    const make = () => ++made;
    expect(perInstance(cache, a, "x", make)).toBe(1);
    expect(perInstance(cache, a, "x", make)).toBe(1);
    expect(perInstance(cache, a, "y", make)).toBe(2);
    expect(perInstance(cache, b, "x", make)).toBe(3);
    expect(made).toBe(3);
  });
});
