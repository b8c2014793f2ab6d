import { data } from "react-router";
import { requestContext } from "~/context.server";
import {
  refundDecisionSchema,
  refundQueueQuerySchema,
} from "~/domain/hosting-services/cancellation.schemas";
import { approveRefund, refuseRefund } from "~/domain/hosting-services/refund-decision.server";
import { listRefundRequests } from "~/domain/hosting-services/refund-queue.server";
import { RefundsPage, type RefundDecisionResult } from "~/features/admin-refunds/refunds-page";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { refusal } from "~/http/route-request.server";
import { formatCoins } from "~/lib/money";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/refunds";

// /admin/refunds: the customers' refund requests within 14 days of an order (docs/self-service.md),
// approved (the coins back with credit notes, the service ended) or refused with a reason.
export const loader = adminLoader(requestContext, {
  title: "services.refunds.title",
  permission: "invoices.refund",
  query: refundQueueQuerySchema,
  load: ({ db, query }) => listRefundRequests(db, query),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "invoices.refund",
  refundDecisionSchema,
  (form) => {
    const message = form.fieldErrors.reason ?? "services.refunds.errors.notFound";
    return data({ ok: false, message } satisfies RefundDecisionResult, { status: 400 });
  },
  async ({ db, admin, input, context }) => {
    const result =
      input.intent === "approve"
        ? await approveRefund(db, { id: input.id, actorId: admin.id })
        : await refuseRefund(db, { id: input.id, actorId: admin.id, reason: input.reason });
    if (!result.ok) return refusal(result);
    return {
      ok: true,
      message:
        input.intent === "approve" ? "services.refunds.approved" : "services.refunds.refused",
      params: { id: input.id, amount: formatCoins(result.amountCents, context.locale) },
    } satisfies RefundDecisionResult;
  },
);

export default function AdminRefunds({ loaderData, actionData }: Route.ComponentProps) {
  return <RefundsPage {...loaderData} result={actionData} />;
}
