import { data } from "react-router";
import {
  servicePanelActionSchema,
  servicePanelIdSchema,
} from "~/domain/provisioning/service-panel.schemas";
import {
  adminServicePanel,
  reinstallPanelServer,
  relinkPanelServer,
  retryProvisioning,
} from "~/domain/provisioning/provisioning.server";
import { staffServerControlSchema } from "~/domain/servers/server-control.schemas";
import { runServerForm } from "~/domain/servers/server-forms.server";
import { readServerPage } from "~/domain/servers/server-status.server";
import {
  ServicePanelPage,
  type ServicePanelActionResult,
} from "~/features/admin-services/service-panel-page";
import { answerOf, unparsedAnswer, type ServerAnswer } from "~/features/servers/server-answers";
import { StaffServerControl } from "~/features/servers/staff-server-control";
import { adminForm, adminPage, invalidForm, refusal } from "~/http/route-request.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/service-panel";
import { requestContext } from "~/context.server";

// /admin/services/:id/panel: the service's side on the game panel, the calls made for it,
// and Retry, Reinstall, Re-link (each queues a job; the page shows where it stands); then, for a
// server on the panel, what its customer sees of it and may ask of it (power, the game's settings, a
// new panel password), asked here in the admin's name.

/** The server's forms on this page; every other intent is the panel side's (retry, reinstall, re-link). */
const SERVER_INTENTS: readonly unknown[] = ["power", "variable", "password"];

export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "provisioning", "services.view");
  const id = servicePanelIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const db = context.services.db;
  // Two reads of two areas: the panel side (any service, set up by hand too) and the server's page
  // (null for a service without a server on the panel).
  const [panel, server] = await Promise.all([
    adminServicePanel(db, id.data),
    readServerPage(db, {
      serviceId: id.data,
      userId: null,
      panelUrl: await context.services.settings.panelUrl(),
      now: context.services.clock(),
    }),
  ]);
  if (!panel) throw data(null, { status: 404 });
  return {
    meta: { title: t("service.title", { id: id.data }) },
    serviceId: id.data,
    panel,
    server,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const QUEUED = {
  retry: "provisioning.service.retryQueued",
  reinstall: "provisioning.service.reinstallQueued",
  relink: "provisioning.service.relinkQueued",
} as const;

/** The intent a post names, read from a copy of its body (the action reads the body itself). */
async function intentOf(request: Request): Promise<unknown> {
  try {
    return (await request.clone().formData()).get("intent");
  } catch {
    return null;
  }
}

/** Power, a game setting or a new panel password, asked of the server as staff. */
async function serverAction({ request, url, params, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(
    request,
    url,
    context,
    staffServerControlSchema,
    "panel.manage",
  );
  const id = servicePanelIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  if (!form.ok)
    return data(unparsedAnswer(form.values.intent, form.fieldErrors, form.values), {
      status: 400,
    });
  const outcome = await runServerForm(context.services.db, {
    serviceId: id.data,
    actorId: admin.id,
    asStaff: true,
    now: context.services.clock(),
    secret: context.services.env.AUTH_SECRET,
    form: form.data,
  });
  const answer = answerOf(form.data, outcome);
  return outcome.ok ? answer : data(answer, { status: statusOf(outcome) });
}

export async function action(args: Route.ActionArgs) {
  if (SERVER_INTENTS.includes(await intentOf(args.request))) return serverAction(args);
  const { request, url, params, context: routerContext } = args;
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(
    request,
    url,
    context,
    servicePanelActionSchema,
    "panel.manage",
  );
  const id = servicePanelIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  if (!form.ok) return invalidForm(form.fieldErrors, "provisioning.errors.serverRequired");
  const db = context.services.db;
  const input = { serviceId: id.data, actorId: admin.id };
  const result =
    form.data.intent === "retry"
      ? await retryProvisioning(db, input)
      : form.data.intent === "reinstall"
        ? await reinstallPanelServer(db, input)
        : await relinkPanelServer(db, { ...input, server: form.data.server });
  if (!result.ok) return refusal(result);
  return { ok: true, message: QUEUED[form.data.intent] } satisfies ServicePanelActionResult;
}

export default function AdminServicePanel({ loaderData, actionData }: Route.ComponentProps) {
  const { server, ...page } = loaderData;
  // The server's forms answer with the form that asked (`form`); the panel side's do not.
  const serverAnswer =
    actionData && "form" in actionData ? (actionData as ServerAnswer) : undefined;
  const panelResult = serverAnswer
    ? undefined
    : (actionData as ServicePanelActionResult | undefined);
  return (
    <ServicePanelPage {...page} result={panelResult}>
      {server ? (
        <StaffServerControl
          view={server}
          locale={loaderData.locale}
          serviceId={loaderData.serviceId}
          answer={serverAnswer}
        />
      ) : null}
    </ServicePanelPage>
  );
}
