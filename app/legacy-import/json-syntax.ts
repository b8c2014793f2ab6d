/**
 * Where a JSON text is wrong, as a line and column. V8's own messages sometimes quote a stretch of the text
 * ("Unexpected token ']', "{"password": ..." is not valid JSON") and sometimes give no place at all; an
 * import file holds plain-text passwords, so we never show V8's message and find the place ourselves.
 * Only called after JSON.parse has failed, so speed does not matter.
 */
export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
}

class Stop extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const MAX_DEPTH = 500;

function scan(text: string): void {
  let i = 0;
  const fail = (reason: string, at = i): never => {
    throw new Stop(at, at >= text.length ? "the text ends too early" : reason);
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    if (text.slice(i, i + word.length) !== word) fail("unexpected character");
    i += word.length;
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail("text in quotes is not closed");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail("a line break or control character inside quotes (write it as \\n)");
      if (c === 0x5c) {
        const next = text[i + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("a bad \\u escape");
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) {
          i += 2;
        } else {
          fail("a backslash that starts no valid escape");
        }
        continue;
      }
      i++;
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match || match[0] === "-") fail("a malformed number");
    i += match![0].length;
    if (i < text.length && /[0-9.eE]/.test(text[i]!)) fail("a malformed number");
  };
  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) fail("nested too deeply");
    space();
    const c = text[i];
    if (c === undefined) fail("the text ends too early");
    if (c === "{") return object(depth);
    if (c === "[") return array(depth);
    if (c === '"') return string();
    if (c === "-" || (c! >= "0" && c! <= "9")) return number();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "'") fail("text must be in double quotes");
    fail("unexpected character");
  };
  const object = (depth: number) => {
    i++;
    space();
    if (text[i] === "}") {
      i++;
      return;
    }
    for (;;) {
      space();
      if (text[i] !== '"') fail("expected a property name in double quotes");
      string();
      space();
      if (text[i] !== ":") fail("expected ':' after a property name");
      i++;
      value(depth + 1);
      space();
      if (text[i] === ",") {
        const comma = i;
        i++;
        space();
        if (text[i] === "}") fail("a comma before '}' (remove it)", comma);
        continue;
      }
      if (text[i] === "}") {
        i++;
        return;
      }
      fail("expected ',' or '}' after a value");
    }
  };
  const array = (depth: number) => {
    i++;
    space();
    if (text[i] === "]") {
      i++;
      return;
    }
    for (;;) {
      value(depth + 1);
      space();
      if (text[i] === ",") {
        const comma = i;
        i++;
        space();
        if (text[i] === "]") fail("a comma before ']' (remove it)", comma);
        continue;
      }
      if (text[i] === "]") {
        i++;
        return;
      }
      fail("expected ',' or ']' after a value");
    }
  };
  value(0);
  space();
  if (i < text.length) fail("more text after the end of the JSON value");
}

function lineAndColumn(text: string, offset: number) {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Null when the text is valid JSON; otherwise the first place it is wrong. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  try {
    scan(text);
    return null;
  } catch (error) {
    if (error instanceof Stop) {
      return { ...lineAndColumn(text, error.offset), message: error.reason };
    }
    if (error instanceof RangeError) return { line: 1, column: 1, message: "nested too deeply" };
    throw error;
  }
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError };

/** JSON.parse with a place instead of V8's message (which may quote the text). */
export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      error: findJsonSyntaxError(text) ?? { line: 1, column: 1, message: "not valid JSON" },
    };
  }
}
