import { data } from "react-router";
import { newsletterSchema } from "~/domain/site/site";
import { subscribeToNewsletter } from "~/domain/site/site.server";
import { parseForm } from "~/http/form.server";
import type { Route } from "./+types/newsletter";

// The footer's box posts here with a fetcher; 'Thanks for subscribing!' also when already subscribed.
export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(request, newsletterSchema);
  if (!form.ok)
    return data(
      { ok: false as const, error: form.fieldErrors.email ?? "site.errors.emailInvalid" },
      { status: 400 },
    );
  await subscribeToNewsletter(context.services.db, form.data.email);
  return { ok: true as const };
}
