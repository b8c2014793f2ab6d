import { data } from "react-router";
import type { z } from "zod";
import type { RequestContext } from "~/context.server";
import {
  parseForm,
  parseFormWithFiles,
  type FieldErrors,
  type ParsedForm,
  type SentFile,
} from "~/http/form.server";
import { permissionRefusal, requirePermission } from "~/http/guards.server";
import { can, type Permission } from "~/domain/staff/permissions";
import { statusOf } from "~/http/result-status";
import type { Namespace } from "~/i18n/resources";
import type { MessageKey } from "~/i18n/use-message";
import type { FailureKind } from "~/lib/result";

/**
 * The start of an admin loader: the member of the staff whose role holds `permission` (null: any member;
 * else the guard's redirect or 403) and a translator in `ns` for the page's title.
 */
export function adminPage<N extends Namespace>(
  url: URL,
  context: RequestContext,
  ns: N,
  permission: Permission | null,
) {
  const admin = requirePermission(url, context, permission);
  return { admin, t: context.i18n.getFixedT(null, ns) };
}

/** A list page's query (filters, page number) read from its address with the domain's schema. */
export function queryOf<S extends z.ZodType>(url: URL, schema: S): z.output<S> {
  return schema.parse(Object.fromEntries(url.searchParams));
}

/**
 * A form that did not parse, answered with 400: its message, after what places it on the page (`about`:
 * its card, its step) and before what else it carries (`rest`: each field's error, what was typed).
 */
export function unparsedForm<A extends object, R extends object = Record<never, never>>(
  about: A,
  message: MessageKey,
  rest: R = {} as R,
) {
  return data({ ok: false as const, ...about, message, ...rest }, { status: 400 });
}

/** A form parseForm refused: its first field message (or `fallback`), answered with 400. */
export function invalidForm(fieldErrors: FieldErrors, fallback: MessageKey) {
  return unparsedForm({}, Object.values(fieldErrors)[0] ?? fallback);
}

/**
 * A domain function's refusal: its message (after what else the page needs to place it, `about`) and
 * the values it takes (`params`: a coin cap, what is left of a daily limit), with the status its kind
 * deserves.
 */
export function refusal<A extends object = Record<never, never>>(
  result: { kind: FailureKind; error: MessageKey; params?: Record<string, string> },
  about: A = {} as A,
) {
  return data(
    {
      ok: false as const,
      ...about,
      message: result.error,
      ...(result.params ? { params: result.params } : {}),
    },
    { status: statusOf(result) },
  );
}

/**
 * The permission a post needs: one for all its intents, or one per intent with "*" for any intent not
 * named (an unknown intent then meets the schema's refusal, once the member holds "*").
 */
export type PostAccess =
  Permission | null | ({ "*": Permission | null } & Partial<Record<string, Permission | null>>);

/** The permission `access` asks of a post whose intent is `intent` (read before the schema parses it). */
export function permissionForIntent(access: PostAccess, intent: unknown): Permission | null {
  if (access === null || typeof access === "string") return access;
  const named = typeof intent === "string" && Object.hasOwn(access, intent);
  return named ? (access[intent] ?? null) : access["*"];
}

/**
 * The start of an admin action: the member of the staff (or the guard's redirect) and the form read
 * with `schema`. The post's intent is checked against `access` before anything else looks at the form:
 * a member whose role lacks its permission gets the 403, valid form or not, and nothing changes. A form
 * that may send files names their field (`filesField`): its post may be multipart, and `files` are what
 * it sent there (parseFormWithFiles): only split from the body, none of them looked into, before the
 * permission is checked.
 */
export async function adminForm<S extends z.ZodType>(
  request: Request,
  url: URL,
  context: RequestContext,
  schema: S,
  access: PostAccess,
  filesField?: string,
) {
  const admin = requirePermission(url, context, null);
  const read = filesField
    ? await parseFormWithFiles(request, schema, filesField)
    : { ...(await parseForm(request, schema)), files: [] as SentFile[] };
  const form: ParsedForm<z.infer<S>> = read;
  const intent = form.ok ? (form.data as { intent?: unknown }).intent : form.values.intent;
  const permission = permissionForIntent(access, intent);
  if (permission !== null && !can(admin.staffRole, permission))
    throw permissionRefusal(admin, permission);
  return { admin, form, files: read.files };
}

/**
 * A post whose intent the page's action does not know (a stale or forged form), answered with 400 and
 * nothing changed; `form: "page"` shows it at the top of the page rather than in one of its cards.
 */
export function unknownForm(message: MessageKey) {
  return data({ ok: false as const, form: "page" as const, message }, { status: 400 });
}
