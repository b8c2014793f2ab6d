import { data } from "react-router";
import { clientIdSchema, clientPageActionSchema } from "~/domain/clients/clients.schemas";
import { getClientDetail, saveClientNote } from "~/domain/clients/clients.server";
import { resetTwoFactor } from "~/domain/accounts/two-factor-reset.server";
import {
  ClientDetailPage,
  ClientNotFound,
  type ClientNoteResult,
} from "~/features/admin-clients/client-detail-page";
import { adminForm, adminPage, refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import { can } from "~/domain/staff/permissions";
import type { Route } from "./+types/client";
import { requestContext } from "~/context.server";

// /admin/clients/:id: one account with its services, orders, tickets, invoices, top-ups, mail, coins and
// audit trail.
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { admin, t } = adminPage(url, context, "admin-clients", "clients.view");
  const id = clientIdSchema.safeParse(params.id);
  const client = id.success
    ? await getClientDetail(context.services.db, id.data, context.locale)
    : undefined;
  if (!client)
    return data(
      { found: false as const, meta: { title: t("notFound.title") }, id: params.id },
      { status: 404 },
    );
  return {
    found: true as const,
    meta: { title: client.profile.name },
    client,
    // An admin's own two-factor is turned off in their account tab, not here.
    own: admin.id === client.profile.id,
    // "View as this customer": for a role that may, on an active customer's account (never staff's).
    viewAs:
      can(admin.staffRole, "clients.viewAs") &&
      client.profile.role === "user" &&
      client.profile.status === "active",
    locale: context.locale,
    // The moment the services' expiries are read against, on the server and again when hydrating.
    now: new Date().toISOString(),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, params, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, clientPageActionSchema, {
    "*": "clients.edit",
    note: "clients.view",
  });
  if (!form.ok) {
    const twoFactor = form.values.intent === "reset-two-factor";
    return data(
      {
        ok: false,
        form: twoFactor ? "twoFactor" : "note",
        message: twoFactor ? "admin-clients.errors.unknownAction" : "admin-clients.note.refused",
        fieldErrors: form.fieldErrors,
        values: form.values,
      } satisfies ClientNoteResult,
      { status: 400 },
    );
  }
  if (form.data.intent === "reset-two-factor") {
    const result = await resetTwoFactor(context.services.db, {
      userId: params.id,
      actorId: admin.id,
    });
    if (!result.ok) return refusal(result, { form: "twoFactor" as const });
    return { ok: true, form: "twoFactor", message: result.message } satisfies ClientNoteResult;
  }
  const result = await saveClientNote(context.services.db, {
    userId: params.id,
    note: form.data.note,
    actorId: admin.id,
  });
  if (!result.ok) return refusal(result, { form: "note" as const });
  return { ok: true, form: "note", message: result.message } satisfies ClientNoteResult;
}

export default function AdminClient({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.found) return <ClientNotFound id={loaderData.id} />;
  return (
    <ClientDetailPage
      client={loaderData.client}
      own={loaderData.own}
      locale={loaderData.locale}
      now={loaderData.now}
      result={actionData}
      viewAs={loaderData.viewAs}
    />
  );
}
