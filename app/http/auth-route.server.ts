import { data } from "react-router";
import type { z } from "zod";
import type { RequestContext } from "~/context.server";
import { parseForm } from "~/http/form.server";
import { redirectSignedIn } from "~/http/guards.server";

/**
 * The start of the login and register loaders: a signed-in user is sent to their home instead, anyone
 * else gets a translator in `auth` for the page's title.
 */
export function authPage(context: RequestContext) {
  redirectSignedIn(context);
  return context.i18n.getFixedT(null, "auth");
}

/**
 * The login or register form read with its accounts schema (messages in `auth`). Refused, `answer` is the
 * page's 400: each field's message and what was typed (passwords left out), for the form to show again.
 */
export async function authForm<S extends z.ZodType>(request: Request, schema: S) {
  const form = await parseForm(request, schema, { namespace: "auth" });
  if (form.ok) return { ok: true as const, fields: form.data };
  return {
    ok: false as const,
    answer: data({ fieldErrors: form.fieldErrors, values: form.values }, { status: 400 }),
  };
}
