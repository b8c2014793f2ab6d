// A JSON scanner that only finds where a text stops being JSON (json-syntax.ts says it in words).

export class Stop extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const MAX_DEPTH = 500;

/** Throws a Stop at the first place the text is not JSON. */
export function scan(text: string): void {
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
  /** The items of an object or a list up to its closing bracket, with the comma rules of JSON. */
  const items = (close: "}" | "]", item: () => void) => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      space();
      if (text[i] === ",") {
        const comma = i;
        i++;
        space();
        if (text[i] === close) fail(`a comma before '${close}' (remove it)`, comma);
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      fail(`expected ',' or '${close}' after a value`);
    }
  };
  const property = (depth: number) => {
    space();
    if (text[i] !== '"') fail("expected a property name in double quotes");
    string();
    space();
    if (text[i] !== ":") fail("expected ':' after a property name");
    i++;
    value(depth + 1);
  };
  const object = (depth: number) => items("}", () => property(depth));
  const array = (depth: number) => items("]", () => value(depth + 1));
  value(0);
  space();
  if (i < text.length) fail("more text after the end of the JSON value");
}
