import { data } from "react-router";
import { requestContext } from "~/context.server";
import {
  PROVIDER_INTENTS,
  providerSettingsActionSchema,
  refusedNotificationsQuerySchema,
} from "~/domain/payments/providers/provider-settings.schemas";
import {
  loadProviderSections,
  saveProviderSettings,
} from "~/domain/payments/providers/provider-settings.server";
import { GatewaysPage, type ProviderActionResult } from "~/features/admin-payments/gateways-page";
import { adminAction } from "~/http/admin-route.server";
import { redirectWithToast } from "~/http/form-answers.server";
import { proofIsFresh, requireFreshProof, withProofPost } from "~/http/fresh-proof.server";
import type { ListEditorResult } from "~/http/list-editor.server";
import { listEditorAction, listEditorLoader } from "~/http/list-editor.server";
import { statusOf } from "~/http/result-status";
import { queryOf } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/gateways";

// /admin/gateways: the payment methods customers buy coins with (docs/payments.md), whose query, data,
// posts and domain calls are the "gateways" list of app/http/list-editor.server.ts, and beside them the
// online providers' connections and the notifications they sent that were refused.
const methodsLoader = listEditorLoader(requestContext, "gateways");

export async function loader(args: Route.LoaderArgs) {
  // The list's loader turns away anyone but an admin first.
  const methods = await methodsLoader(args);
  const context = requestContext(args.context);
  const { services } = context;
  const { refused } = queryOf(args.url, refusedNotificationsQuerySchema);
  return {
    ...methods,
    // Whether saving a method or a provider asks for the password or a code first.
    proofFresh: proofIsFresh(context),
    ...(await loadProviderSections(services.db, {
      publicUrl: services.env.PUBLIC_URL,
      refusedPage: refused,
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const methodsAction = listEditorAction(requestContext, "gateways");

/** A provider's form: saved, then back to the page with a toast; refused, its fields' messages. */
const providerAction = adminAction(
  requestContext,
  "gateways.manage",
  providerSettingsActionSchema,
  (form) =>
    data(
      {
        ok: false,
        intent: "provider",
        provider: providerOf(form.values.intent),
        message: "payments.providers.saveFailed",
        fieldErrors: form.fieldErrors,
        // Never the secret: what was typed in it is not sent back to the page.
        values: { ...form.values, secret: "" },
      } satisfies ProviderActionResult,
      { status: 400 },
    ),
  async ({ db, admin, input, context }) => {
    const values = {
      mode: input.mode,
      apiUrl: input.apiUrl,
      publicId: input.publicId,
      webhookId: input.webhookId,
      secret: "",
    };
    // A provider's keys decide where payments are checked and sent: a fresh proof of identity first.
    const unproven = await requireFreshProof({
      context,
      refused: (refusal) =>
        ({
          ok: false,
          intent: "provider",
          provider: input.provider,
          ...refusal,
          values,
        }) satisfies ProviderActionResult,
    });
    if (unproven) return unproven;
    const result = await saveProviderSettings(
      db,
      { ...input, actorId: admin.id },
      { secret: context.services.env.AUTH_SECRET },
    );
    if (!result.ok)
      return data(
        {
          ok: false,
          intent: "provider",
          provider: input.provider,
          message: "payments.providers.saveFailed",
          reason: result.error,
          fieldErrors: { [result.field]: result.error },
          values,
        } satisfies ProviderActionResult,
        { status: statusOf(result) },
      );
    throw redirectWithToast(`/admin/gateways#provider-${input.provider}`, "toast.providerSaved");
  },
);

function providerOf(intent: string | undefined): ProviderActionResult["provider"] {
  return intent === "provider-youcanpay" ? "youcanpay" : "paypal";
}

/** The intent a post names, read from a copy of its body (the action reads the body itself). */
async function intentOf(request: Request): Promise<string | null> {
  try {
    const intent = (await request.clone().formData()).get("intent");
    return typeof intent === "string" ? intent : null;
  } catch {
    // A body that is no form: the methods' action answers it as it answers any bad post.
    return null;
  }
}

/** A provider's form by its intent (`provider-paypal`…), every other post the methods' list. */
export async function action(args: Route.ActionArgs) {
  const intent = await intentOf(args.request);
  if ((PROVIDER_INTENTS as readonly (string | null)[]).includes(intent))
    return withProofPost(requestContext, providerAction)(args);
  return methodsAction(args);
}

export default function AdminGateways({ loaderData, actionData }: Route.ComponentProps) {
  const providerResult =
    actionData && actionData.intent === "provider"
      ? (actionData as ProviderActionResult)
      : undefined;
  const listResult = providerResult ? undefined : (actionData as ListEditorResult | undefined);
  return <GatewaysPage {...loaderData} result={listResult} providerResult={providerResult} />;
}
