import { data } from "react-router";
import { gamePanelActionSchema } from "~/domain/provisioning/panel-connection.schemas";
import {
  readPanelConnection,
  removePanelClientKey,
  requestPanelCheck,
  savePanelConnection,
} from "~/domain/provisioning/panel-connection.server";
import {
  GamePanelPage,
  type GamePanelActionResult,
} from "~/features/admin-settings/game-panel-page";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { proofIsFresh, requireFreshProof, withProofPost } from "~/http/fresh-proof.server";
import { refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/game-panel";
import { requestContext } from "~/context.server";

// /admin/settings/game-panel (docs/provisioning.md): the panel's address and key, the optional
// client key (docs/server-control.md), the order form's locations on the panel, "Check connection" (a
// job reads the panel; this page shows what it found), and whether the panel may be on the local
// network (a setting).
export const loader = adminLoader(requestContext, {
  title: "provisioning.panel.title",
  permission: "panel.manage",
  load: async ({ db, context }) => ({
    connection: await readPanelConnection(db),
    locations: context.settings.general.locations,
    allowLocalNetwork: context.settings.gamePanel.allowLocalNetwork,
    // Whether saving a key asks for the password or a code first.
    proofFresh: proofIsFresh(context),
  }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const postAction = adminAction(
  requestContext,
  "panel.manage",
  gamePanelActionSchema,
  (form) =>
    data(
      {
        ok: false,
        intent: "save",
        message: "provisioning.panel.saveFailed",
        fieldErrors: form.fieldErrors,
        // Never a key: what was typed in them is not sent back to the page.
        values: { ...form.values, apiKey: "", clientKey: "" },
      } satisfies GamePanelActionResult,
      { status: 400 },
    ),
  async ({ db, admin, input, context }) => {
    if (input.intent === "network") {
      const saved = await saveSettingsForm(context.services, {
        intent: "gamePanel",
        allowLocalNetwork: input.allowLocalNetwork,
        actorId: admin.id,
      });
      // Without JavaScript the page is rendered in this same request: with the setting just saved.
      context.settings = await context.services.settings.get();
      return {
        ok: true,
        intent: "network",
        message:
          saved.changed.length > 0
            ? "provisioning.panel.networkSaved"
            : "provisioning.panel.networkUnchanged",
      } satisfies GamePanelActionResult;
    }
    if (input.intent === "check") {
      const result = await requestPanelCheck(db);
      if (!result.ok) return refusal(result, { intent: "check" as const });
      return {
        ok: true,
        intent: "check",
        message: "provisioning.panel.checkQueued",
      } satisfies GamePanelActionResult;
    }
    if (input.intent === "removeClientKey") {
      const removed = await removePanelClientKey(db, { actorId: admin.id });
      if (!removed.ok) return refusal(removed, { intent: "removeClientKey" as const });
      return {
        ok: true,
        intent: "removeClientKey",
        message: removed.removed
          ? "provisioning.panel.clientKeyRemoved"
          : "provisioning.panel.clientKeyNone",
      } satisfies GamePanelActionResult;
    }
    // Saving the application key or the client key (the keys that run every server) asks for a fresh
    // proof of identity first; the address and the locations alone do not.
    if (input.apiKey !== null || input.clientKey !== null) {
      const unproven = await requireFreshProof({
        context,
        refused: (refusal, typed) =>
          ({
            ok: false,
            intent: "save",
            ...refusal,
            // Never a key: what was typed in them is not sent back to the page.
            values: { ...typed.values, apiKey: "", clientKey: "" },
          }) satisfies GamePanelActionResult,
      });
      if (unproven) return unproven;
    }
    const result = await savePanelConnection(
      db,
      { ...input, actorId: admin.id },
      { secret: context.services.env.AUTH_SECRET },
    );
    if (!result.ok)
      return refusal(result, {
        intent: "save" as const,
        fieldErrors: { [result.field]: result.error },
      });
    // The footer's game-panel link follows the panel's address (kept with the settings).
    context.services.settings.invalidate();
    return {
      ok: true,
      intent: "save",
      message: "provisioning.panel.saved",
    } satisfies GamePanelActionResult;
  },
);

/** The page's posts, read as typed first: a key's save may carry a proof of identity. */
export const action = withProofPost(requestContext, postAction);

export default function AdminGamePanel({ loaderData, actionData }: Route.ComponentProps) {
  return <GamePanelPage {...loaderData} result={actionData} />;
}
