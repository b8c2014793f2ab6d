import { describe, expect, it } from "vitest";
import { visibleText } from "./visible-text";

describe("visibleText", () => {
  it("keeps ordinary text, markup included, as text", () => {
    expect(visibleText("someone@example.com")).toBe("someone@example.com");
    expect(visibleText("<img src=x onerror=alert(1)>")).toBe("<img src=x onerror=alert(1)>");
  });

  it("shows control and direction-changing characters instead of obeying them", () => {
    expect(visibleText("admin\u202Emoc.elgoog@x")).toBe("admin\ufffdmoc.elgoog@x");
    expect(visibleText("a\u0000b\u200Bc\u2066d")).toBe("a\ufffdb\ufffdc\ufffdd");
  });

  it("cuts a long value", () => {
    expect(visibleText("x".repeat(400), 10)).toBe(`${"x".repeat(10)}…`);
  });
});
