import { data } from "react-router";
import {
  SUBSCRIBERS_PAGE_SIZE,
  subscriberActionSchema,
  subscriberListQuerySchema,
} from "~/domain/inbox/inbox";
import { listNewsletterSubscribers, removeNewsletterSubscriber } from "~/domain/inbox/inbox.server";
import type { ContactActionResult } from "~/features/admin-inbox/contact-messages-page";
import { NewsletterPage } from "~/features/admin-inbox/newsletter-page";
import { parseForm } from "~/http/form.server";
import { requireAdmin } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/newsletter";
import { requestContext } from "~/context.server";

// Newsletter subscribers (written by the footer's box, /newsletter): list, search, remove, CSV.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requireAdmin(url, context);
  const t = context.i18n.getFixedT(null, "admin");
  const query = subscriberListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listNewsletterSubscribers(context.services.db, {
    q: query.q,
    limit: SUBSCRIBERS_PAGE_SIZE,
    offset: (query.page - 1) * SUBSCRIBERS_PAGE_SIZE,
  });
  return { meta: { title: t("nav.newsletter") }, ...list, query, locale: context.locale };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const admin = requireAdmin(url, context);
  const form = await parseForm(request, subscriberActionSchema);
  if (!form.ok)
    return data(
      {
        ok: false,
        message: Object.values(form.fieldErrors)[0] ?? "admin-inbox.errors.unknownAction",
      } satisfies ContactActionResult,
      { status: 400 },
    );
  const result = await removeNewsletterSubscriber(context.services.db, {
    id: form.data.id,
    actorId: admin.id,
  });
  if (!result.ok)
    return data({ ok: false, message: result.error } satisfies ContactActionResult, {
      status: statusOf(result),
    });
  return { ok: true, message: "admin-inbox.newsletter.removed" } satisfies ContactActionResult;
}

export default function AdminNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  return <NewsletterPage {...loaderData} result={actionData} />;
}
