import { data } from "react-router";
import { requestContext } from "~/context.server";
import { topUpDecisionSchema, topUpQueueQuerySchema } from "~/domain/payments/top-ups.schemas";
import { loadTopUpQueuePage, runTopUpDecision } from "~/domain/payments/top-ups.server";
import { TopUpsQueue, type TopUpDecisionResult } from "~/features/admin-payments/top-ups-queue";
import { adminForm, adminPage, queryOf } from "~/http/route-request.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/top-ups";

// /admin/top-ups: the customers' top-up requests, approved (coins credited once) or rejected
// (docs/payments.md).
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "payments");
  const query = queryOf(url, topUpQueueQuerySchema);
  const page = await loadTopUpQueuePage(context.services.db, query, context.locale);
  return { meta: { title: t("topUps.admin.title") }, ...page, query, locale: context.locale };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, topUpDecisionSchema);
  if (!form.ok) {
    const message =
      form.fieldErrors.reason ?? form.fieldErrors.coins ?? "payments.errors.topUpNotFound";
    return data({ ok: false, message } satisfies TopUpDecisionResult, { status: 400 });
  }
  const result = await runTopUpDecision(context.services.db, {
    adminId: admin.id,
    decision: form.data,
  });
  if (!result.ok)
    return data({ ok: false, message: result.error } satisfies TopUpDecisionResult, {
      status: statusOf(result),
    });
  return { ok: true, message: result.message, params: result.params } satisfies TopUpDecisionResult;
}

export default function AdminTopUps({ loaderData, actionData }: Route.ComponentProps) {
  return <TopUpsQueue {...loaderData} result={actionData} />;
}
