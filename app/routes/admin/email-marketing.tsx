import { data, redirect } from "react-router";
import { requestContext } from "~/context.server";
import { newCampaignSchema } from "~/domain/campaigns/campaigns.schemas";
import { listCampaigns, saveCampaign } from "~/domain/campaigns/campaigns.server";
import { CampaignsPage } from "~/features/campaigns/campaigns-page";
import type { CampaignActionResult } from "~/features/campaigns/campaign-shared";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/email-marketing";

// /admin/email-marketing (docs/mail.md#campaigns): the campaigns, and a new one's editor. The Owner's
// page (`campaigns.manage`); a saved campaign opens on its own page.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.emailMarketing",
  permission: "campaigns.manage",
  load: async ({ db }) => ({ campaigns: await listCampaigns(db) }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "campaigns.manage",
  newCampaignSchema,
  (form) =>
    data(
      {
        ok: false,
        intent: "save",
        message: "campaigns.saveFailed",
        fieldErrors: form.fieldErrors,
        values: form.values,
      } satisfies CampaignActionResult,
      { status: 400 },
    ),
  async ({ db, admin, input }) => {
    const result = await saveCampaign(db, {
      actorId: admin.id,
      texts: input.texts,
      audience: input.audience,
    });
    if (!result.ok) return refusal(result, { intent: "save" });
    return redirect(`/admin/email-marketing/${result.id}`);
  },
);

export default function AdminEmailMarketing({ loaderData, actionData }: Route.ComponentProps) {
  return <CampaignsPage {...loaderData} result={actionData} />;
}
