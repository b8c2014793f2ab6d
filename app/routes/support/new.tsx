import { data, redirect } from "react-router";
import { listCustomerServices } from "~/domain/hosting-services/customer-services.server";
import { openTicketSchema } from "~/domain/tickets/tickets.schemas";
import { openCustomerTicket } from "~/domain/tickets/tickets.server";
import { NewTicketForm } from "~/features/support/new-ticket-form";
import { emailVerificationRequired } from "~/http/email-verification.server";
import { inUploadTurn, parseFormWithFiles } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/new";
import { requestContext } from "~/context.server";

export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const t = context.i18n.getFixedT(null, "tickets");
  // The coin dialog's "open a support ticket" arrives with ?topic=coins.
  const coins = url.searchParams.get("topic") === "coins";
  const services = await listCustomerServices(context.services.db, user.id);
  return {
    meta: { title: t("new.title") },
    ticketsOpen: context.settings.features.tickets,
    // A fresh key per form shown: the same form sent twice opens one ticket.
    idempotencyKey: crypto.randomUUID(),
    defaults: coins
      ? { department: "billing", subject: t("new.coinsSubject"), message: t("new.coinsMessage") }
      : { department: "technical", subject: "", message: "" },
    services: services
      .filter((s) => s.status !== "terminated")
      .map((s) => ({ id: s.id, name: s.name, serverName: s.serverName })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  // A post with files waits for the process's other uploads (their images are decoded one at a time).
  return inUploadTurn(request, () => answer(request, context, user.id));
}

/** The action's work, once it is this post's turn. */
async function answer(
  request: Request,
  context: ReturnType<typeof requestContext>,
  userId: string,
) {
  const form = await parseFormWithFiles(request, openTicketSchema, "files");
  if (!form.ok) {
    // The form's key is no field a person fills: a missing or mangled one is said above the form.
    const { idempotencyKey: formError, ...fieldErrors } = form.fieldErrors;
    return data({ fieldErrors, formError, values: form.values }, { status: 400 });
  }
  const result = await openCustomerTicket(
    context.services.db,
    { userId, ...form.data, uploads: form.files },
    {
      ticketsOpen: context.settings.features.tickets,
      requireVerifiedEmail: emailVerificationRequired(context),
    },
  );
  // A file refused: which and why, said under the files (what was typed stays in its field).
  const filesError =
    !result.ok && "field" in result ? { message: result.error, params: result.params } : undefined;
  if (!result.ok)
    return data(
      {
        formError: filesError ? undefined : result.error,
        values: form.data as unknown as Record<string, string>,
        // Not verified: the form shows the way to confirm the address (/verify-email).
        verifyEmail: "verifyEmail" in result,
        // Too many tickets lately: how long to wait (minutes, or hours), said in the message.
        formErrorCount: "count" in result ? result.count : undefined,
        filesError,
      },
      { status: statusOf(result) },
    );
  throw redirect(`/support/${result.ticket.id}?opened=1`);
}

export default function NewTicket({ loaderData, actionData }: Route.ComponentProps) {
  return <NewTicketForm {...loaderData} state={actionData} />;
}
