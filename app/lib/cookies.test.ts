import { describe, expect, it } from "vitest";
import { readCookie } from "./cookies";

describe("readCookie", () => {
  it("finds a cookie among others", () => {
    expect(readCookie("a=1; hostfront_lang=fr; b=2", "hostfront_lang")).toBe("fr");
    expect(readCookie("a=1", "hostfront_lang")).toBeNull();
  });

  it("takes a malformed escape for no cookie rather than throwing", () => {
    expect(readCookie("hostfront_lang=%E0%A4%A", "hostfront_lang")).toBeNull();
    expect(readCookie("hostfront_lang=%E0; b=2", "b")).toBe("2");
  });
});
