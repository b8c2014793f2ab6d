import { config, z } from "zod";
import { westernDigits } from "./western-digits";

// Zod compiles fast parsers with `new Function` and probes for it when a schema is created; our CSP
// forbids eval, and the caught probe still reports a violation. Every module imports z from here, so this
// runs before any schema exists (in the browser the route chunks can load before the client entry).
config({ jitless: true });

export { z };

/** Reports a custom issue with `message`, on the field `path` when one is given. */
export function customIssue(ctx: z.RefinementCtx, message: string, path?: string): void {
  ctx.addIssue(
    path === undefined ? { code: "custom", message } : { code: "custom", message, path: [path] },
  );
}

/**
 * A text a form must fill in: trimmed, refused with `required` when it is missing or blank and with
 * `tooLong` (the same message unless another is given) past `max` characters.
 */
export function requiredText(required: string, max: number, tooLong: string = required) {
  return z.string({ error: required }).trim().min(1, required).max(max, tooLong);
}

/**
 * A whole number typed in a form (Arabic-Indic digits read as 0 to 9) from `min` to `max`, in at most
 * `digits` digits: anything else (a sign, a decimal point, a blank) is refused with `message`, and a
 * number out of range or too long with `outOfRange` (the same message unless another is given).
 */
export function wholeNumberText(
  message: string,
  {
    digits,
    min,
    max,
    outOfRange = message,
  }: { digits: number; min: number; max: number; outOfRange?: string },
) {
  return z
    .string({ error: message })
    .trim()
    .transform(westernDigits)
    .pipe(z.string().regex(/^\d+$/, message).max(digits, outOfRange))
    .transform(Number)
    .pipe(z.number().min(min, outOfRange).max(max, outOfRange));
}

/** A checkbox: browsers send "on" when it is ticked and nothing when it is not. */
export function ticked() {
  return z
    .string()
    .optional()
    .transform((value) => value === "on");
}

/** A note a form may leave empty: at most `max` characters (`tooLong`), trimmed, null when blank. */
export function optionalNote(max: number, tooLong: string) {
  return z
    .string()
    .max(max, tooLong)
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : null));
}

/**
 * `schema` fed a form's fields with `field` set to what `read` makes of them all: fields the form names
 * one by one (a checkbox a product, a field a panel variable) handed to the schema as one value.
 */
export function withFormField<Schema extends z.ZodType>(
  field: string,
  read: (fields: Record<string, unknown>) => unknown,
  schema: Schema,
) {
  return z.preprocess(
    (value) =>
      value && typeof value === "object" && !Array.isArray(value)
        ? { ...value, [field]: read(value as Record<string, unknown>) }
        : value,
    schema,
  );
}
