import { data } from "react-router";
import { requestContext } from "~/context.server";
import { requestPanelPassword, requestServerAction } from "~/domain/servers/server-actions.server";
import {
  serverActionRequestOf,
  serverControlSchema,
  serverServiceIdSchema,
} from "~/domain/servers/server-control.schemas";
import { readServerPage, setOfflineNotice } from "~/domain/servers/server-status.server";
import {
  ASKED,
  askedAnswer,
  refusedAnswer,
  unparsedAnswer,
  type ServerAnswer,
} from "~/features/servers/server-answers";
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
  const db = context.services.db;
  const now = context.services.clock();
  const input = { serviceId: id.data, actorId: user.id, asStaff: false, now };
  const posted = form.data;
  if (posted.intent === "notice") {
    const result = await setOfflineNotice(db, {
      serviceId: id.data,
      userId: user.id,
      on: posted.notice,
      now,
    });
    if (!result.ok) return data(refusedAnswer("notice", result), { status: statusOf(result) });
    return askedAnswer("notice");
  }
  if (posted.intent === "password") {
    const result = await requestPanelPassword(db, {
      ...input,
      secret: context.services.env.AUTH_SECRET,
    });
    if (!result.ok) return data(refusedAnswer("password", result), { status: statusOf(result) });
    return {
      ok: true,
      form: "password",
      message: ASKED.password,
      password: result.password,
      username: result.username,
    } satisfies ServerAnswer;
  }
  const env = posted.intent === "variable" ? posted.env : undefined;
  const result = await requestServerAction(db, {
    ...input,
    request: serverActionRequestOf(posted)!,
  });
  if (!result.ok)
    return data(
      refusedAnswer(posted.intent, result, {
        env,
        values: posted.intent === "variable" ? { env: posted.env, value: posted.value } : undefined,
      }),
      { status: statusOf(result) },
    );
  return askedAnswer(posted.intent, env);
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
