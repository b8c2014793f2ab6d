import { data } from "react-router";
import { decideOrderSchema, orderListQuerySchema } from "~/domain/orders/orders.schemas";
import { approveOrder, listOrdersForAdmin, rejectOrder } from "~/domain/orders/orders.server";
import { OrdersTable, type OrderActionResult } from "~/features/admin-orders/orders-table";
import { formatEuros } from "~/lib/money";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/orders";
import { requestContext } from "~/context.server";

export const loader = adminLoader(requestContext, {
  title: "orders.admin.title",
  permission: "orders.view",
  query: orderListQuerySchema,
  load: ({ db, query }) => listOrdersForAdmin(db, query),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "orders.decide",
  decideOrderSchema,
  (form) => {
    const message = form.fieldErrors.reason ?? "orders.errors.notFound";
    return data({ ok: false, message } satisfies OrderActionResult, { status: 400 });
  },
  async ({ db, admin, input, context }) => {
    const result =
      input.intent === "approve"
        ? await approveOrder(db, { orderId: input.orderId, actorId: admin.id })
        : await rejectOrder(db, {
            orderId: input.orderId,
            actorId: admin.id,
            reason: input.reason,
          });
    if (!result.ok) return refusal(result);
    return {
      ok: true,
      message: input.intent === "approve" ? "orders.admin.approved" : "orders.admin.rejected",
      params: { id: result.order.id, amount: formatEuros(result.order.totalCents, context.locale) },
    } satisfies OrderActionResult;
  },
);

export default function AdminOrders({ loaderData, actionData }: Route.ComponentProps) {
  return <OrdersTable {...loaderData} result={actionData} />;
}
