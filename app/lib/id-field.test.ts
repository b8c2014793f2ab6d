import { describe, expect, it } from "vitest";
import { idField, MAX_ROW_ID } from "./id-field";

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
