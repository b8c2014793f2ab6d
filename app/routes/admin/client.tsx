import { data } from "react-router";
import { clientIdSchema, clientNoteSchema } from "~/domain/clients/clients.schemas";
import { getClientDetail, saveClientNote } from "~/domain/clients/clients.server";
import {
  ClientDetailPage,
  ClientNotFound,
  type ClientNoteResult,
} from "~/features/admin-clients/client-detail-page";
import { adminForm, adminPage, refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/client";
import { requestContext } from "~/context.server";

// /admin/clients/:id (issue 21): one account with its services, orders, tickets, coins and audit trail.
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "admin-clients");
  const id = clientIdSchema.safeParse(params.id);
  const client = id.success ? await getClientDetail(context.services.db, id.data) : undefined;
  if (!client)
    return data(
      { found: false as const, meta: { title: t("notFound.title") }, id: params.id },
      { status: 404 },
    );
  return {
    found: true as const,
    meta: { title: client.profile.name },
    client,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, params, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, clientNoteSchema);
  if (!form.ok)
    return data(
      {
        ok: false,
        message: "admin-clients.note.refused",
        fieldErrors: form.fieldErrors,
        values: form.values,
      } satisfies ClientNoteResult,
      { status: 400 },
    );
  const result = await saveClientNote(context.services.db, {
    userId: params.id,
    note: form.data.note,
    actorId: admin.id,
  });
  if (!result.ok) return refusal(result);
  return { ok: true, message: result.message } satisfies ClientNoteResult;
}

export default function AdminClient({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.found) return <ClientNotFound id={loaderData.id} />;
  return (
    <ClientDetailPage client={loaderData.client} locale={loaderData.locale} result={actionData} />
  );
}
