import { data, redirect } from "react-router";
import { newsletterErrorOutcome } from "~/domain/site/site";
import { newsletterReturnPath, newsletterSchema } from "~/domain/site/site.schemas";
import { signUpForNewsletter } from "~/domain/campaigns/newsletter.server";
import { parseForm } from "~/http/form.server";
import { isDocumentSubmission } from "~/http/navigation.server";
import type { Route } from "./+types/newsletter";
import { requestContext } from "~/context.server";

// Only the footer's box posts here; a visitor who opens the address goes home rather than to React
// Router's "no loader" error (a 400 reading "Unexpected Server Error").
export function loader() {
  return redirect("/");
}

// The footer's box posts here with a fetcher; 'Thanks for subscribing!' also when already subscribed
// (and whether or not a confirmation link was mailed: docs/mail.md#campaigns).
// Posted without JavaScript, the browser is sent back to its page, where the footer shows the outcome.
export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const form = await parseForm(request, newsletterSchema);
  if (form.ok)
    await signUpForNewsletter(context.services.db, {
      email: form.data.email,
      locale: context.locale,
      secret: context.services.env.AUTH_SECRET,
    });
  const error = form.ok ? undefined : (form.fieldErrors.email ?? "common.errors.emailInvalid");
  if (isDocumentSubmission(request)) {
    const back = form.ok ? form.data.redirectTo : form.values.redirectTo;
    return redirect(newsletterReturnPath(back, error ? newsletterErrorOutcome(error) : "thanks"));
  }
  if (error) return data({ ok: false as const, error }, { status: 400 });
  return { ok: true as const };
}
