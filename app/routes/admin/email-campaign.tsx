import { data, type Params } from "react-router";
import { requestContext } from "~/context.server";
import { campaignActionSchema, campaignIdSchema } from "~/domain/campaigns/campaigns.schemas";
import {
  campaignPage,
  saveCampaign,
  sendCampaign,
  testCampaign,
} from "~/domain/campaigns/campaigns.server";
import { writtenLocales } from "~/domain/campaigns/campaigns";
import { CampaignPage } from "~/features/campaigns/campaign-page";
import type { CampaignActionResult } from "~/features/campaigns/campaign-shared";
import { mailWriter } from "~/features/mail/mail-writer";
import { adminAction } from "~/http/admin-route.server";
import { requirePermission } from "~/http/guards.server";
import { refusal } from "~/http/route-request.server";
import { sharedI18n } from "~/i18n/shared-i18n.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/email-campaign";

/** The campaign's id from its address; a bad one is a campaign that does not exist. */
function campaignId(params: Params): number {
  const id = campaignIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  return id.data;
}

// A campaign's page (docs/mail.md#campaigns): its preview in each written language (the templates of
// the send job, with a link that unsubscribes nobody), its draft's editor, "send it to me", "send",
// and, once sent, its report. `campaigns.manage`, the Owner's.
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requirePermission(url, context, "campaigns.manage");
  const page = await campaignPage(context.services.db, campaignId(params));
  if (!page) throw data(null, { status: 404 });
  const write = mailWriter({
    settings: () => context.services.settings.get(),
    publicUrl: context.services.env.PUBLIC_URL,
    i18n: sharedI18n,
  });
  const previews = await Promise.all(
    writtenLocales(page.campaign.texts).map(async (locale) => {
      const text = page.campaign.texts[locale];
      const mail = await write({
        kind: "campaign",
        locale,
        params: { subject: text.subject, body: text.body, token: "preview" },
      });
      return { locale, subject: mail.subject, html: mail.html };
    }),
  );
  const title = context.i18n.t("admin:nav.emailMarketing");
  return { meta: { title: `${page.campaign.texts.en.subject} · ${title}` }, ...page, previews };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "campaigns.manage",
  campaignActionSchema,
  (form) =>
    data(
      {
        ok: false,
        intent: typeof form.values.intent === "string" ? form.values.intent : undefined,
        message:
          form.values.intent === "save" ? "campaigns.saveFailed" : "campaigns.errors.unknownAction",
        fieldErrors: form.fieldErrors,
        values: form.values,
      } satisfies CampaignActionResult,
      { status: 400 },
    ),
  async ({ db, admin, input, params, context }) => {
    const id = campaignId(params);
    const secret = context.services.env.AUTH_SECRET;
    const result =
      input.intent === "save"
        ? await saveCampaign(db, {
            id,
            actorId: admin.id,
            texts: input.texts,
            audience: input.audience,
          })
        : input.intent === "test"
          ? await testCampaign(db, { id, actor: { id: admin.id, email: admin.email }, secret })
          : await sendCampaign(db, {
              id,
              actorId: admin.id,
              secret,
              perMinute: context.services.env.CAMPAIGN_MAILS_PER_MINUTE,
            });
    if (!result.ok) return refusal(result, { intent: input.intent });
    return {
      ok: true,
      intent: input.intent,
      message: result.message,
      count: result.count,
    } satisfies CampaignActionResult;
  },
);

export default function AdminEmailCampaign({ loaderData, actionData }: Route.ComponentProps) {
  return <CampaignPage {...loaderData} result={actionData} />;
}
