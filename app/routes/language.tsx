import { redirect } from "react-router";
import { z } from "~/lib/zod";
import { MAX_REDIRECT_LENGTH, safeRedirect } from "~/domain/accounts/accounts";
import { setUserLocale } from "~/domain/accounts/accounts.server";
import { parseForm } from "~/http/form.server";
import { localeCookie, SUPPORTED_LOCALES } from "~/i18n/locales";
import type { Route } from "./+types/language";
import { requestContext } from "~/context.server";

const schema = z.object({
  lang: z.enum(SUPPORTED_LOCALES),
  redirectTo: z.string().max(MAX_REDIRECT_LENGTH).optional(),
});

export function loader() {
  return redirect("/");
}

// Keeps the choice in a cookie for a year and, for a signed-in user, on the account; back to the same page.
export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const form = await parseForm(request, schema);
  if (!form.ok) return redirect("/");
  const user = context.session?.user;
  if (user) await setUserLocale(context.services.db, user.id, form.data.lang);
  const secure = context.services.env.PUBLIC_URL.startsWith("https://");
  return redirect(safeRedirect(form.data.redirectTo, "/"), {
    headers: { "Set-Cookie": localeCookie(form.data.lang, { secure }) },
  });
}
