import type { z } from "zod";
import type { Namespace } from "~/i18n/resources";
import type { MessageKey } from "~/i18n/use-message";
import { oneAtATime } from "~/lib/one-at-a-time";
import { multipartBoundary, parseMultipart } from "./multipart.server";

/** Each refused field's message key ("orders.errors.required"), shown under the field in the reader's language. */
export type FieldErrors = Record<string, MessageKey>;

export type ParsedForm<T> =
  { ok: true; data: T } | { ok: false; fieldErrors: FieldErrors; values: Record<string, string> };

/** The message of a refused field whose check names none of its own. */
const INVALID: MessageKey = "common.errors.invalid";
const UNSPECIFIED = "\u0000unspecified";

/**
 * Fields that are never sent back to the browser after a failed submit: passwords, and the password or
 * code typed to prove who one is before a sensitive change (app/http/fresh-proof.server.ts).
 */
const SECRET_FIELDS = /password|^proof$/i;

/** Whether a field holds a secret that no answer may carry back. */
export function secretField(name: string): boolean {
  return SECRET_FIELDS.test(name);
}

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
  return validateForm(await readFormData(request), schema, options);
}

/** A file a form sent: the name the browser gave it and its bytes (never trusted for the type). */
export interface SentFile {
  name: string;
  bytes: Uint8Array;
}

const uploadTurn = oneAtATime();

/**
 * Runs an action's `work` for an upload (a multipart post) once the process's other uploads are done, the
 * others at once. An upload's body is read in full before it gets here (server/request-limits.ts), but
 * reading its parts copies each file, and its images are decoded: one at a time, a process holds one
 * post's copies and one image's pixels however many customers post at the same moment (`npm run
 * bench:proofs`). A customer waits behind another's seconds at most.
 */
export function inUploadTurn<T>(request: Request, work: () => Promise<T>): Promise<T> {
  const type = request.headers.get("content-type") ?? "";
  return /^multipart\/form-data/i.test(type) ? uploadTurn(work) : work();
}

/**
 * Reads a multipart form (an upload): its text fields validated as parseForm does, and the files sent
 * in `field`. An empty file input still sends a part, with no name and no bytes: it is left out. The
 * body's size was bounded before the route ran (the upload limit, server/request-limits.ts).
 */
export async function parseFormWithFiles<S extends z.ZodType>(
  request: Request,
  schema: S,
  field: string,
  options: { namespace?: Namespace } = {},
): Promise<ParsedForm<z.infer<S>> & { files: SentFile[] }> {
  const boundary = multipartBoundary(request.headers.get("content-type") ?? "");
  if (boundary) {
    // Read in place (multipart.server.ts): each file a view of the body, no copy.
    const parts = parseMultipart(new Uint8Array(await request.arrayBuffer()), boundary);
    const fields = new FormData();
    const files: SentFile[] = [];
    for (const part of parts ?? []) {
      if (part.filename === null) fields.append(part.name, textOf(part.data));
      else if (part.name !== field)
        fields.append(part.name, ""); // a file sent for a text field is no text
      else if (part.data.length > 0 || part.filename !== "")
        files.push({ name: part.filename, bytes: part.data });
    }
    return { ...validateForm(parts ? fields : null, schema, options), files };
  }
  const formData = await readFormData(request);
  const files: SentFile[] = [];
  for (const value of formData?.getAll(field) ?? []) {
    if (typeof value === "string" || (value.size === 0 && value.name === "")) continue;
    files.push({ name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return { ...validateForm(formData, schema, options), files };
}

const utf8 = new TextDecoder("utf-8");
/** A text field's bytes as text (UTF-8, as every page of the site is). */
const textOf = (bytes: Uint8Array) => utf8.decode(bytes);

async function readFormData(request: Request): Promise<FormData | null> {
  try {
    return await request.formData();
  } catch {
    // A body that is not a form is treated as an empty form: every required field reports itself.
    return null;
  }
}

function validateForm<S extends z.ZodType>(
  formData: FormData | null,
  schema: S,
  options: { namespace?: Namespace },
): ParsedForm<z.infer<S>> {
  const entries: Record<string, string> = Object.fromEntries(
    // NUL is never meaningful in a form and PostgreSQL refuses it in text: drop it here, once for all.
    [...(formData?.entries() ?? [])].map(([key, value]) => [
      key,
      typeof value === "string" ? value.replaceAll("\u0000", "") : "",
    ]),
  );
  // A check our schema gave no message of its own (a union's, say) would answer in zod's English
  // ("Invalid input"), which is no message key: the page could not show it in any language.
  const result = schema.safeParse(entries, { error: () => UNSPECIFIED });
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "form");
    // Our schemas write message keys as their messages: this is where a zod string becomes one.
    fieldErrors[key] ??= (
      issue.message === UNSPECIFIED
        ? INVALID
        : options.namespace
          ? `${options.namespace}.${issue.message}`
          : issue.message
    ) as MessageKey;
  }
  const values = Object.fromEntries(Object.entries(entries).filter(([key]) => !secretField(key)));
  return { ok: false, fieldErrors, values };
}

/**
 * The text fields of a form as typed, to show it again when a save that passed parseForm is refused
 * afterwards (a slug or code already taken), secrets left out. Pass a clone made before parseForm read
 * the body.
 */
export async function typedValues(request: Request): Promise<Record<string, string>> {
  const form = await request.formData().catch(() => new FormData());
  return Object.fromEntries(
    [...form.entries()].filter(
      (entry): entry is [string, string] => typeof entry[1] === "string" && !secretField(entry[0]),
    ),
  );
}
