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
import {
  ServicePanelPage,
  type ServicePanelActionResult,
} from "~/features/admin-services/service-panel-page";
import { adminForm, adminPage, invalidForm, refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/service-panel";
import { requestContext } from "~/context.server";

// /admin/services/:id/panel: the service's side on the game panel, the calls made for it,
// and Retry, Reinstall, Re-link (each queues a job; the page shows where it stands).
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "provisioning");
  const id = servicePanelIdSchema.safeParse(params.id);
  const panel = id.success ? await adminServicePanel(context.services.db, id.data) : null;
  if (!id.success || !panel) throw data(null, { status: 404 });
  return {
    meta: { title: t("service.title", { id: id.data }) },
    serviceId: id.data,
    panel,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const QUEUED = {
  retry: "provisioning.service.retryQueued",
  reinstall: "provisioning.service.reinstallQueued",
  relink: "provisioning.service.relinkQueued",
} as const;

export async function action({ request, url, params, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, servicePanelActionSchema);
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
  return <ServicePanelPage {...loaderData} result={actionData} />;
}
