import { data } from "react-router";
import { requestContext } from "~/context.server";
import {
  affiliatesActionSchema,
  affiliatesQuerySchema,
} from "~/domain/referrals/referrals.schemas";
import {
  decideReferral,
  loadAffiliatesAdmin,
  saveReferralSettings,
} from "~/domain/referrals/referrals.server";
import { AffiliatesPage, type AffiliatesResult } from "~/features/admin-affiliates/affiliates-page";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/affiliates";

// /admin/affiliates (docs/referrals.md): the referral settings, the referrals and their rewards, and
// the decisions on flagged ones. The page and each form need `affiliates.manage`, which the use-cases
// check again from the database.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.affiliates",
  permission: "affiliates.manage",
  query: affiliatesQuerySchema,
  load: async ({ db, query }) => loadAffiliatesAdmin(db, query),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "affiliates.manage",
  affiliatesActionSchema,
  (form) => {
    const intent = typeof form.values.intent === "string" ? form.values.intent : undefined;
    return data(
      {
        ok: false,
        intent,
        message:
          intent === "settings"
            ? "referrals.admin.settings.failed"
            : (Object.values(form.fieldErrors)[0] ?? "referrals.errors.decisionInvalid"),
        fieldErrors: intent === "settings" ? form.fieldErrors : undefined,
        values: intent === "settings" ? form.values : undefined,
      } satisfies AffiliatesResult,
      { status: 400 },
    );
  },
  async ({ db, admin, input }) => {
    if (input.intent === "settings") {
      const saved = await saveReferralSettings(db, {
        actorId: admin.id,
        settings: {
          enabled: input.enabled,
          percentBasisPoints: input.percent,
          monthlyCapCents: input.cap,
        },
      });
      if (!saved.ok)
        return data(
          { ok: false, intent: "settings", message: saved.error } satisfies AffiliatesResult,
          {
            status: statusOf(saved),
          },
        );
      return {
        ok: true,
        intent: "settings",
        message: saved.changed
          ? "referrals.admin.settings.saved"
          : "referrals.admin.settings.unchanged",
      } satisfies AffiliatesResult;
    }
    const decided = await decideReferral(db, {
      actorId: admin.id,
      id: input.id,
      decision: input.intent,
    });
    if (!decided.ok)
      return data(
        { ok: false, intent: input.intent, message: decided.error } satisfies AffiliatesResult,
        {
          status: statusOf(decided),
        },
      );
    return {
      ok: true,
      intent: input.intent,
      message:
        input.intent === "pay" ? "referrals.admin.decide.paid" : "referrals.admin.decide.rejected",
    } satisfies AffiliatesResult;
  },
);

export default function AdminAffiliates({ loaderData, actionData }: Route.ComponentProps) {
  return <AffiliatesPage {...loaderData} result={actionData} />;
}
