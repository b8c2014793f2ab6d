import { data } from "react-router";
import type { z } from "zod";
import type { RequestContext } from "~/context.server";
import { parseForm, type FieldErrors } from "~/http/form.server";
import { requireAdmin } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import type { Namespace } from "~/i18n/resources";
import type { MessageKey } from "~/i18n/use-message";
import type { FailureKind } from "~/lib/result";

/**
 * The start of an admin loader: the admin (or the guard's redirect) and a translator in `ns` for the
 * page's title.
 */
export function adminPage<N extends Namespace>(url: URL, context: RequestContext, ns: N) {
  const admin = requireAdmin(url, context);
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
 * A domain function's refusal: its message (after what else the page needs to place it, `about`), with
 * the status its kind deserves.
 */
export function refusal<A extends object = Record<never, never>>(
  result: { kind: FailureKind; error: MessageKey },
  about: A = {} as A,
) {
  return data(
    { ok: false as const, ...about, message: result.error },
    { status: statusOf(result) },
  );
}

/** The start of an admin action: the admin (or the guard's redirect) and the form read with `schema`. */
export async function adminForm<S extends z.ZodType>(
  request: Request,
  url: URL,
  context: RequestContext,
  schema: S,
) {
  const admin = requireAdmin(url, context);
  return { admin, form: await parseForm(request, schema) };
}

/**
 * A post whose intent the page's action does not know (a stale or forged form), answered with 400 and
 * nothing changed; `form: "page"` shows it at the top of the page rather than in one of its cards.
 */
export function unknownForm(message: MessageKey) {
  return data({ ok: false as const, form: "page" as const, message }, { status: 400 });
}
