import { describe, expect, it, vi } from "vitest";
import { isTimeZone } from "./time-zone";

describe("isTimeZone", () => {
  it("knows IANA names and UTC, and refuses made-up ones, every time it is asked", () => {
    for (let i = 0; i < 2; i++) {
      expect(isTimeZone("Africa/Casablanca")).toBe(true);
      expect(isTimeZone("UTC")).toBe(true);
      expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
      expect(isTimeZone("")).toBe(false);
    }
  });

  it("asks the runtime once per valid zone, and again for each invalid one", () => {
    const spy = vi.spyOn(Intl, "DateTimeFormat");
    try {
      expect(isTimeZone("Europe/Lisbon")).toBe(true);
      expect(isTimeZone("Europe/Lisbon")).toBe(true);
      expect(isTimeZone("Nowhere/Atlantis")).toBe(false);
      expect(isTimeZone("Nowhere/Atlantis")).toBe(false);
      expect(spy).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
    }
  });
});
