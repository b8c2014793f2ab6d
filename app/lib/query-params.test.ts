import { describe, expect, it } from "vitest";
import { editParam, filterParam, pageParam, searchParam, textParam } from "./query-params";

describe("list query params", () => {
  it("falls back to page 1", () => {
    expect(pageParam.parse("3")).toBe(3);
    for (const value of [undefined, "0", "x", "2.5", "100001"])
      expect(pageParam.parse(value)).toBe(1);
  });

  it("falls back to no search text", () => {
    expect(searchParam.parse("mia")).toBe("mia");
    expect(searchParam.parse(undefined)).toBe("");
    expect(searchParam.parse("x".repeat(201))).toBe("");
  });

  it("drops a text filter that is absent or too long", () => {
    const email = textParam(5);
    expect(email.parse("a@b.c")).toBe("a@b.c");
    expect(email.parse("a@b.cd")).toBeUndefined();
    expect(email.parse(undefined)).toBeUndefined();
  });

  it("drops an unknown filter value", () => {
    const status = filterParam(["open", "closed"] as const);
    expect(status.parse("open")).toBe("open");
    expect(status.parse("lost")).toBeUndefined();
    expect(status.parse(undefined)).toBeUndefined();
  });

  it("reads which form to show", () => {
    expect(editParam.parse("new")).toBe("new");
    expect(editParam.parse("7")).toBe(7);
    for (const value of [undefined, "0", "old", "2147483648"]) {
      expect(editParam.parse(value)).toBeUndefined();
    }
  });
});
