import { subscriberActionSchema, subscriberListQuerySchema } from "~/domain/inbox/inbox.schemas";
import { listNewsletterSubscribers, removeNewsletterSubscriber } from "~/domain/inbox/inbox.server";
import type { ContactActionResult } from "~/features/admin-inbox/contact-messages-page";
import { NewsletterPage } from "~/features/admin-inbox/newsletter-page";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/newsletter";

// Newsletter subscribers (written by the footer's box, /newsletter): list, search, remove, CSV.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.newsletter",
  permission: "inbox.manage",
  query: subscriberListQuerySchema,
  load: ({ db, query }) => listNewsletterSubscribers(db, query),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "inbox.manage",
  subscriberActionSchema,
  "admin-inbox.errors.unknownAction",
  async ({ db, admin, input }) => {
    const result = await removeNewsletterSubscriber(db, { id: input.id, actorId: admin.id });
    if (!result.ok) return refusal(result);
    return { ok: true, message: "admin-inbox.newsletter.removed" } satisfies ContactActionResult;
  },
);

export default function AdminNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  return <NewsletterPage {...loaderData} result={actionData} />;
}
