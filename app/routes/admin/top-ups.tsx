import { data } from "react-router";
import { requestContext } from "~/context.server";
import { topUpDecisionSchema, topUpQueueQuerySchema } from "~/domain/payments/top-ups.schemas";
import { loadTopUpQueuePage, runTopUpDecision } from "~/domain/payments/top-ups.server";
import { TopUpsQueue, type TopUpDecisionResult } from "~/features/admin-payments/top-ups-queue";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/top-ups";

// /admin/top-ups: the customers' top-up requests, approved (coins credited once) or rejected
// (docs/payments.md).
export const loader = adminLoader(requestContext, {
  title: "payments.topUps.admin.title",
  query: topUpQueueQuerySchema,
  load: ({ db, query, context }) => loadTopUpQueuePage(db, query, context.locale),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  topUpDecisionSchema,
  (form) => {
    const message =
      form.fieldErrors.reason ?? form.fieldErrors.coins ?? "payments.errors.topUpNotFound";
    return data({ ok: false, message } satisfies TopUpDecisionResult, { status: 400 });
  },
  async ({ db, admin, input }) => {
    const result = await runTopUpDecision(db, {
      adminId: admin.id,
      decision: input,
    });
    if (!result.ok)
      return data({ ok: false, message: result.error } satisfies TopUpDecisionResult, {
        status: statusOf(result),
      });
    return {
      ok: true,
      message: result.message,
      params: result.params,
    } satisfies TopUpDecisionResult;
  },
);

export default function AdminTopUps({ loaderData, actionData }: Route.ComponentProps) {
  return <TopUpsQueue {...loaderData} result={actionData} />;
}
