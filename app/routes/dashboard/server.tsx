import { data } from "react-router";
import { requestContext } from "~/context.server";
import { runServerForm } from "~/domain/servers/server-forms.server";
import {
  serverControlSchema,
  serverServiceIdSchema,
} from "~/domain/servers/server-control.schemas";
import { readServerPage } from "~/domain/servers/server-status.server";
import { answerOf, unparsedAnswer, type ServerAnswer } from "~/features/servers/server-answers";
import { ServerPage } from "~/features/servers/server-page";
import { parseForm } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { revalidateOnConflict } from "~/lib/revalidate-on-conflict";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/server";

// /dashboard/services/:id (docs/server-control.md): the customer's server, its state from the cache
// (never the panel), and what they may ask of it. Another customer's service, a service without a
// server on the panel and an id that is none get the 404 page. Each form is one domain call; what it
// asks is done by a job, and the card shows it moving.

export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const id = serverServiceIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const view = await readServerPage(context.services.db, {
    serviceId: id.data,
    userId: user.id,
    panelUrl: await context.services.settings.panelUrl(),
    now: context.services.clock(),
    readOnly: Boolean(context.session?.viewer),
  });
  if (!view) throw data(null, { status: 404 });
  const t = context.i18n.getFixedT(null, "services");
  return {
    meta: { title: t("server.page.title", { server: view.service.serverName }) },
    view,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, params, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const id = serverServiceIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const form = await parseForm(request, serverControlSchema);
  if (!form.ok)
    return data(unparsedAnswer(form.values.intent, form.fieldErrors, form.values), {
      status: 400,
    });
  const outcome = await runServerForm(context.services.db, {
    serviceId: id.data,
    actorId: user.id,
    asStaff: false,
    now: context.services.clock(),
    secret: context.services.env.AUTH_SECRET,
    form: form.data,
  });
  const answer = answerOf(form.data, outcome);
  return outcome.ok ? answer : data(answer, { status: statusOf(outcome) });
}

// A refusal for the server's state (409: suspended, installing) reloads the page, which shows that state.
export const shouldRevalidate = revalidateOnConflict;

export default function DashboardServer({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ServerPage
      view={loaderData.view}
      locale={loaderData.locale}
      answer={actionData as ServerAnswer | undefined}
    />
  );
}
