import type { z } from "zod";
import { expect } from "vitest";

/** The first message of each field `schema` refuses in `fields`, as parseForm shows them. */
export function firstErrorsOf(
  schema: z.ZodType,
  fields: Record<string, string>,
): Record<string, string> {
  const result = schema.safeParse(fields);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

/**
 * A form's refusals as a table: each case is what a post changes from `valid`, then the first message
 * of each field `schema` refuses in it (as parseForm shows them). A failing case names its change.
 */
export function expectRefusals(
  schema: z.ZodType,
  valid: Record<string, string>,
  cases: readonly (readonly [change: Record<string, string>, errors: Record<string, string>])[],
): void {
  for (const [change, errors] of cases)
    expect(firstErrorsOf(schema, { ...valid, ...change }), JSON.stringify(change)).toEqual(errors);
}
