import type { z } from "zod";

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
