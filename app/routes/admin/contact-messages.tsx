import { data, redirect } from "react-router";
import {
  CONTACT_PAGE_SIZE,
  contactActionSchema,
  contactListQuerySchema,
} from "~/domain/inbox/inbox";
import {
  deleteContactMessage,
  listContactMessages,
  markContactMessage,
} from "~/domain/inbox/inbox.server";
import {
  ContactMessagesPage,
  type ContactActionResult,
} from "~/features/admin-inbox/contact-messages-page";
import { parseForm } from "~/http/form.server";
import { requireAdmin } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/contact-messages";
import { requestContext } from "~/context.server";

const PATH = "/admin/contact-messages";

// Messages sent through /contact: read, search, open, mark read or unread, reply by email, delete.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requireAdmin(url, context);
  const t = context.i18n.getFixedT(null, "admin");
  const query = contactListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listContactMessages(context.services.db, {
    ...query,
    limit: CONTACT_PAGE_SIZE,
    offset: (query.page - 1) * CONTACT_PAGE_SIZE,
  });
  return {
    meta: { title: t("nav.contactMessages") },
    ...list,
    query,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const admin = requireAdmin(url, context);
  const form = await parseForm(request, contactActionSchema);
  if (!form.ok)
    return data(
      {
        ok: false,
        message: Object.values(form.fieldErrors)[0] ?? "admin-inbox.errors.unknownAction",
      } satisfies ContactActionResult,
      { status: 400 },
    );
  const db = context.services.db;
  const input = form.data;
  const result =
    input.intent === "delete"
      ? await deleteContactMessage(db, { id: input.id, actorId: admin.id })
      : await markContactMessage(db, { id: input.id, read: input.intent !== "unread" });
  if (!result.ok)
    return data({ ok: false, message: result.error } satisfies ContactActionResult, {
      status: statusOf(result),
    });
  if (input.intent === "open") {
    // Opening reads it: back to the same list (its filters kept) with the message shown in full.
    const list = contactListQuerySchema.parse(Object.fromEntries(url.searchParams));
    const params = new URLSearchParams();
    if (list.q) params.set("q", list.q);
    if (list.show !== "all") params.set("show", list.show);
    if (list.page > 1) params.set("page", String(list.page));
    params.set("open", String(input.id));
    return redirect(`${PATH}?${params}`);
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
}

export default function AdminContactMessages({ loaderData, actionData }: Route.ComponentProps) {
  return <ContactMessagesPage {...loaderData} result={actionData} />;
}
