import type { z } from "zod";
import type { Namespace } from "~/i18n/resources";
import type { MessageKey } from "~/i18n/use-message";

/** Each refused field's message key ("orders.errors.required"), shown under the field in the reader's language. */
export type FieldErrors = Record<string, MessageKey>;

export type ParsedForm<T> =
  { ok: true; data: T } | { ok: false; fieldErrors: FieldErrors; values: Record<string, string> };

/** Fields that are never sent back to the browser after a failed submit. */
const SECRET_FIELDS = /password/i;

/**
 * Reads a form body and validates it with a zod schema. On failure it returns the first message of each
 * field and what was typed (minus passwords), so the form can show both without losing the input.
 */
export async function parseForm<S extends z.ZodType>(
  request: Request,
  schema: S,
  /**
   * The namespace of a schema whose messages name keys inside it ("errors.emailRequired", the accounts
   * schemas in auth): they come back as message keys like every other ("auth.errors.emailRequired").
   */
  options: { namespace?: Namespace } = {},
): Promise<ParsedForm<z.infer<S>>> {
  let entries: Record<string, string> = {};
  try {
    const formData = await request.formData();
    entries = Object.fromEntries(
      // NUL is never meaningful in a form and PostgreSQL refuses it in text: drop it here, once for all.
      [...formData.entries()].map(([key, value]) => [
        key,
        typeof value === "string" ? value.replaceAll("\u0000", "") : "",
      ]),
    );
  } catch {
    // A body that is not a form is treated as an empty form: every required field reports itself.
  }
  const result = schema.safeParse(entries);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "form");
    // Our schemas write message keys as their messages: this is where a zod string becomes one.
    fieldErrors[key] ??= (
      options.namespace ? `${options.namespace}.${issue.message}` : issue.message
    ) as MessageKey;
  }
  const values = Object.fromEntries(
    Object.entries(entries).filter(([key]) => !SECRET_FIELDS.test(key)),
  );
  return { ok: false, fieldErrors, values };
}

/**
 * The text fields of a form as typed, to show it again when a save that passed parseForm is refused
 * afterwards (a slug or code already taken). Pass a clone made before parseForm read the body.
 */
export async function typedValues(request: Request): Promise<Record<string, string>> {
  const form = await request.formData().catch(() => new FormData());
  return Object.fromEntries(
    [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}
