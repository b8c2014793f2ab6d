import { data } from "react-router";
import { requestContext } from "~/context.server";
import { refundOnlinePayment } from "~/domain/payments/online-refunds.server";
import { topUpDecisionSchema, topUpQueueQuerySchema } from "~/domain/payments/top-ups.schemas";
import { loadTopUpQueuePage, runTopUpDecision } from "~/domain/payments/top-ups.server";
import { TopUpsQueue, type TopUpDecisionResult } from "~/features/admin-payments/top-ups-queue";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { redirectWithToast } from "~/http/form-answers.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/top-ups";

// /admin/top-ups: the customers' top-up requests, approved (coins credited once) or rejected
// (docs/payments.md), and the refunds of those paid online (docs/online-payments.md).
export const loader = adminLoader(requestContext, {
  title: "payments.topUps.admin.title",
  permission: "topups.decide",
  query: topUpQueueQuerySchema,
  load: ({ db, query, context }) => loadTopUpQueuePage(db, query, context.locale),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  { "*": "topups.decide", refund: "invoices.refund" },
  topUpDecisionSchema,
  (form) => {
    if (form.values.intent === "refund")
      return data(
        {
          ok: false,
          intent: "refund",
          paymentId: Number(form.values.paymentId) || undefined,
          message:
            form.fieldErrors.amount ??
            form.fieldErrors.paymentId ??
            "payments.errors.paymentNotFound",
          fieldErrors: form.fieldErrors,
        } satisfies TopUpDecisionResult,
        { status: 400 },
      );
    const message =
      form.fieldErrors.reason ?? form.fieldErrors.coins ?? "payments.errors.topUpNotFound";
    return data({ ok: false, message } satisfies TopUpDecisionResult, { status: 400 });
  },
  async ({ db, admin, input, url }) => {
    if (input.intent === "refund") {
      const asked = await refundOnlinePayment(db, {
        adminId: admin.id,
        paymentId: input.paymentId,
        amount: input.amount,
      });
      if (!asked.ok)
        return data(
          {
            ok: false,
            intent: "refund",
            paymentId: input.paymentId,
            message: asked.error,
            fieldErrors: { amount: asked.error },
          } satisfies TopUpDecisionResult,
          { status: statusOf(asked) },
        );
      // Back to the same page of the list, where the refund shows as in progress.
      throw redirectWithToast(`${url.pathname}${url.search}`, "toast.refundAsked");
    }
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
