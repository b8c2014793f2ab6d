import { data } from "react-router";
import { decideOrderSchema, orderListQuerySchema } from "~/domain/orders/orders.schemas";
import { approveOrder, listOrdersForAdmin, rejectOrder } from "~/domain/orders/orders.server";
import { OrdersTable, type OrderActionResult } from "~/features/admin-orders/orders-table";
import { formatEuros } from "~/lib/money";
import { adminForm, adminPage, queryOf, refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/orders";
import { requestContext } from "~/context.server";

export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "orders");
  const query = queryOf(url, orderListQuerySchema);
  const { orders, hasMore } = await listOrdersForAdmin(context.services.db, query);
  return {
    meta: { title: t("admin.title") },
    orders,
    hasMore,
    status: query.status,
    page: query.page,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, decideOrderSchema);
  if (!form.ok) {
    const message = form.fieldErrors.reason ?? "orders.errors.notFound";
    return data({ ok: false, message } satisfies OrderActionResult, { status: 400 });
  }
  const input = form.data;
  const result =
    input.intent === "approve"
      ? await approveOrder(context.services.db, { orderId: input.orderId, actorId: admin.id })
      : await rejectOrder(context.services.db, {
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
}

export default function AdminOrders({ loaderData, actionData }: Route.ComponentProps) {
  return <OrdersTable {...loaderData} result={actionData} />;
}
