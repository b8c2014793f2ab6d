import { describe, expect, it } from "vitest";
import { containsPattern } from "./like-pattern";

describe("containsPattern", () => {
  it("matches the text anywhere", () => {
    expect(containsPattern("ada")).toBe("%ada%");
  });

  it("escapes LIKE's wildcards and its escape character, so they match literally", () => {
    expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });

  it("matches everything for an empty text", () => {
    expect(containsPattern("")).toBe("%%");
  });
});
