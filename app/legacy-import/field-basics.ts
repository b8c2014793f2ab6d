import { customIssue, z } from "~/lib/zod";

// What the field readers share: each turns one JSON value into ours, or says what is wrong without
// quoting secrets.

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };
export const ok = <T>(value: T): Read<T> => ({ ok: true, value });
export const bad = (message: string): Read<never> => ({ ok: false, message });

/** What a JSON value is, in words, for messages ("found a list"). */
export function describeJsonValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return "text";
    case "number":
      return "a number";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      return "an object";
    default:
      return "nothing";
  }
}

/** A value quoted in a message: short, so a message never carries a long stretch of the file. */
export function shown(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

export const isMissing = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

// `.optional()` first: zod 4 calls a missing key an error before any transform sees it; our readers
// decide for themselves what missing means.
export function field<T>(read: (value: unknown) => Read<T>) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      const result = read(value);
      if (!result.ok) {
        customIssue(ctx, result.message);
        return z.NEVER;
      }
      return result.value;
    });
}

/** A field read later by a lenient reader (dates, specs, lists), where nothing in it is refused. */
export const lenient = z.unknown().optional();

export const expected = (what: string) => (issue: { input?: unknown }) =>
  `expected ${what}, found ${describeJsonValue(issue.input)}`;
