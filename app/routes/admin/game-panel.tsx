import { data } from "react-router";
import { gamePanelActionSchema } from "~/domain/provisioning/panel-connection.schemas";
import {
  readPanelConnection,
  requestPanelCheck,
  savePanelConnection,
} from "~/domain/provisioning/panel-connection.server";
import {
  GamePanelPage,
  type GamePanelActionResult,
} from "~/features/admin-settings/game-panel-page";
import { adminForm, adminPage, refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/game-panel";
import { requestContext } from "~/context.server";

// /admin/settings/game-panel (issue 27, docs/provisioning.md): the panel's address and key, the order
// form's locations on the panel, and "Check connection" (a job reads the panel; this page shows what it
// found).
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "provisioning");
  return {
    meta: { title: t("panel.title") },
    connection: await readPanelConnection(context.services.db),
    locations: context.settings.general.locations,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, gamePanelActionSchema);
  if (!form.ok)
    return data(
      {
        ok: false,
        intent: "save",
        message: "provisioning.panel.saveFailed",
        fieldErrors: form.fieldErrors,
        // Never the key: what was typed in it is not sent back to the page.
        values: { ...form.values, apiKey: "" },
      } satisfies GamePanelActionResult,
      { status: 400 },
    );
  const db = context.services.db;
  if (form.data.intent === "check") {
    const result = await requestPanelCheck(db);
    if (!result.ok) return refusal(result, { intent: "check" as const });
    return {
      ok: true,
      intent: "check",
      message: "provisioning.panel.checkQueued",
    } satisfies GamePanelActionResult;
  }
  const result = await savePanelConnection(
    db,
    { ...form.data, actorId: admin.id },
    { secret: context.services.env.AUTH_SECRET },
  );
  if (!result.ok)
    return refusal(result, {
      intent: "save" as const,
      fieldErrors: { [result.field]: result.error },
    });
  return {
    ok: true,
    intent: "save",
    message: "provisioning.panel.saved",
  } satisfies GamePanelActionResult;
}

export default function AdminGamePanel({ loaderData, actionData }: Route.ComponentProps) {
  return <GamePanelPage {...loaderData} result={actionData} />;
}
