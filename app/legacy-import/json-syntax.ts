/**
 * Where a JSON text is wrong, as a line and column. V8's own messages sometimes quote a stretch of the text
 * ("Unexpected token ']', "{"password": ..." is not valid JSON") and sometimes give no place at all; an
 * import file holds plain-text passwords, so we never show V8's message and find the place ourselves.
 * Only called after JSON.parse has failed, so speed does not matter.
 */
import { scan, Stop } from "./json-scan";

export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
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
