import { subscriberActionSchema, subscriberListQuerySchema } from "~/domain/inbox/inbox.schemas";
import { listNewsletterSubscribers, removeNewsletterSubscriber } from "~/domain/inbox/inbox.server";
import type { ContactActionResult } from "~/features/admin-inbox/contact-messages-page";
import { NewsletterPage } from "~/features/admin-inbox/newsletter-page";
import { adminForm, adminPage, invalidForm, queryOf, refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/newsletter";

// Newsletter subscribers (written by the footer's box, /newsletter): list, search, remove, CSV.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "admin");
  const query = queryOf(url, subscriberListQuerySchema);
  const list = await listNewsletterSubscribers(context.services.db, query);
  return { meta: { title: t("nav.newsletter") }, ...list, query, locale: context.locale };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, subscriberActionSchema);
  if (!form.ok) return invalidForm(form.fieldErrors, "admin-inbox.errors.unknownAction");
  const result = await removeNewsletterSubscriber(context.services.db, {
    id: form.data.id,
    actorId: admin.id,
  });
  if (!result.ok) return refusal(result);
  return { ok: true, message: "admin-inbox.newsletter.removed" } satisfies ContactActionResult;
}

export default function AdminNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  return <NewsletterPage {...loaderData} result={actionData} />;
}
