import { describe, expect, it } from "vitest";
import { findJsonSyntaxError, parseJson } from "./json-syntax";

describe("findJsonSyntaxError", () => {
  it("finds nothing wrong in valid JSON", () => {
    for (const text of ['{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]}', "[]", " 0 ", '"s"'])
      expect(findJsonSyntaxError(text), text).toBeNull();
  });

  it.each([
    ['{\n  "a": 1,\n  "b": [1, 2,]\n}', 3, 13, "a comma before ']'"],
    ['{"a": 1,}', 1, 8, "a comma before '}'"],
    ['{"a": 1 "b": 2}', 1, 9, "expected ',' or '}'"],
    ["{'a': 1}", 1, 2, "expected a property name in double quotes"],
    ["{\"a\": 'x'}", 1, 7, "double quotes"],
    ['{"a": "line\nbreak"}', 1, 12, "control character"],
    ['{"a": tru}', 1, 7, "unexpected character"],
    ['{"a": 01}', 1, 8, "malformed number"],
    ['{"a": [1, 2}', 1, 12, "expected ',' or ']'"],
    ['{"a": 1', 1, 8, "ends too early"],
    ['{"a": 1} x', 1, 10, "more text after"],
    ['{"a": "\\x"}', 1, 8, "backslash"],
  ])("places %j at line %i, column %i", (text, line, column, message) => {
    const error = findJsonSyntaxError(text);
    expect(error).toMatchObject({ line, column });
    expect(error!.message).toContain(message);
  });

  it("never quotes the text, unlike V8's own message", () => {
    const text = '{"users": [{"email": "a@b.co", "password": "Tr0ub4dor&3"]}';
    const parsed = parseJson(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.message).not.toContain("Tr0ub4dor");
    expect(`${parsed.error.line}:${parsed.error.column}`).toBe("1:57");
  });

  it("survives absurd nesting", () => {
    expect(findJsonSyntaxError("[".repeat(10_000))?.message).toBe("nested too deeply");
  });
});
