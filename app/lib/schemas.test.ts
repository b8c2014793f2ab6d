import { describe, expect, it } from "vitest";
import {
  editParam,
  enumFilterParam,
  idField,
  MAX_ROW_ID,
  pageParam,
  searchParam,
  textFilterParam,
} from "./schemas";

describe("idField", () => {
  it("reads a positive whole number up to the largest row id", () => {
    const id = idField("x.notFound");
    expect(id.parse("12")).toBe(12);
    expect(id.safeParse(String(MAX_ROW_ID + 1)).success).toBe(false);
  });

  it("refuses anything else with the one message", () => {
    const id = idField("x.notFound", Number.MAX_SAFE_INTEGER);
    expect(id.parse(String(MAX_ROW_ID + 1))).toBe(MAX_ROW_ID + 1);
    for (const value of ["abc", "0", "-3", "1.5", undefined]) {
      expect(id.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual([
        "x.notFound",
      ]);
    }
  });
});

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
    const email = textFilterParam(5);
    expect(email.parse("a@b.c")).toBe("a@b.c");
    expect(email.parse("a@b.cd")).toBeUndefined();
    expect(email.parse(undefined)).toBeUndefined();
  });

  it("drops an unknown filter value", () => {
    const status = enumFilterParam(["open", "closed"] as const);
    expect(status.parse("open")).toBe("open");
    expect(status.parse("lost")).toBeUndefined();
    expect(status.parse(undefined)).toBeUndefined();
  });

  it("reads which form to show", () => {
    expect(editParam.parse("new")).toBe("new");
    expect(editParam.parse("7")).toBe(7);
    for (const value of [undefined, "0", "old", String(MAX_ROW_ID + 1)]) {
      expect(editParam.parse(value)).toBeUndefined();
    }
  });
});
