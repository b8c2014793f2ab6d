import { redirect } from "react-router";
import { contactActionSchema, contactListQuerySchema } from "~/domain/inbox/inbox.schemas";
import {
  deleteContactMessage,
  listContactMessages,
  markContactMessage,
} from "~/domain/inbox/inbox.server";
import {
  ContactMessagesPage,
  contactListHref,
  type ContactActionResult,
} from "~/features/admin-inbox/contact-messages-page";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { queryOf, refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/contact-messages";

const PATH = "/admin/contact-messages";

// Messages sent through /contact: read, search, open, mark read or unread, reply by email, delete.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.contactMessages",
  permission: "inbox.manage",
  query: contactListQuerySchema,
  load: ({ db, query }) => listContactMessages(db, query),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "inbox.manage",
  contactActionSchema,
  "admin-inbox.errors.unknownAction",
  async ({ db, admin, input, url }) => {
    const result =
      input.intent === "delete"
        ? await deleteContactMessage(db, { id: input.id, actorId: admin.id })
        : await markContactMessage(db, { id: input.id, read: input.intent !== "unread" });
    if (!result.ok) return refusal(result);
    if (input.intent === "open") {
      // Opening reads it: back to the same list (its filters kept) with the message shown in full.
      const list = queryOf(url, contactListQuerySchema);
      return redirect(`${PATH}${contactListHref(list, { open: input.id })}`);
    }
    return {
      ok: true,
      message:
        input.intent === "delete"
          ? "admin-inbox.contact.deleted"
          : input.intent === "read"
            ? "admin-inbox.contact.markedRead"
            : "admin-inbox.contact.markedUnread",
    } satisfies ContactActionResult;
  },
);

export default function AdminContactMessages({ loaderData, actionData }: Route.ComponentProps) {
  return <ContactMessagesPage {...loaderData} result={actionData} />;
}
