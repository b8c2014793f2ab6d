import { useTranslation } from "~/i18n/use-translation";
import { Badge } from "~/components/ui/badge";
import { TitledCard } from "~/components/ui/card";
import { ApprovalTime } from "~/components/ui/approval-time";
import { ListCard } from "~/components/ui/list-card";
import { badgeTone } from "~/domain/hosting-services/hosting-services";
import { BILLING_CYCLE_NAMES, ORDER_STATUS_LABELS, type Order } from "~/domain/orders/orders";
import type { WaitingOrder } from "~/domain/customer-dashboard/customer-dashboard";
import { WAIT_REASON_TEXTS, type WaitReason } from "~/domain/orders/order-approval";
import { formatEuros } from "~/lib/money";
import { mediumDate } from "~/lib/intl-format";

type OrderRow = Pick<
  Order,
  | "id"
  | "productName"
  | "serverName"
  | "totalCents"
  | "status"
  | "createdAt"
  | "rejectReason"
  | "waitReason"
>;

/** An order's status as a coloured badge: the same in the waiting orders and in the order history. */
function OrderStatusBadge({ status }: { status: OrderRow["status"] }) {
  const { t } = useTranslation("orders");
  return <Badge tone={badgeTone(status)}>{t(ORDER_STATUS_LABELS[status])}</Badge>;
}

/**
 * Under an order that waits: why the system did not approve it as it was placed (its plan, the trust
 * rule, the panel's room), then how long approval usually takes.
 */
function WhyItWaits({ reason, hours }: { reason: WaitReason | null; hours: number }) {
  const { t } = useTranslation("orders");
  return (
    <>
      {reason ? (
        <p className="text-sm" data-wait-reason={reason}>
          {t(WAIT_REASON_TEXTS[reason])}
        </p>
      ) : null}
      <ApprovalTime hours={hours} />
    </>
  );
}

/** Orders that are not services yet: waiting for an admin, or lately refused with the reason. */
export function WaitingOrders({
  orders,
  locale,
  approvalHours,
}: {
  orders: WaitingOrder[];
  locale: string;
  approvalHours: number;
}) {
  const { t } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const date = mediumDate(locale);
  return (
    <TitledCard title={t("customer.waitingTitle")}>
      <ul className="divide-y" aria-label={t("customer.waitingTitle")}>
        {orders.map((order) => (
          <li
            key={order.id}
            className="flex flex-wrap items-center justify-between gap-3 py-3"
            data-order-id={order.id}
          >
            <div className="grid gap-1">
              <p className="font-medium">
                #{order.id} <bdi>{order.productName}</bdi>{" "}
                <span className="user-text text-muted-foreground" dir="auto">
                  {order.serverName}
                </span>
              </p>
              <p className="text-sm text-muted-foreground">
                {date.format(new Date(order.createdAt))} ·{" "}
                {tOrders(BILLING_CYCLE_NAMES[order.billingCycle])} ·{" "}
                <span dir="ltr">{formatEuros(order.totalCents, locale)}</span>
              </p>
              <p className="text-sm">
                {order.status === "pending" ? t("customer.waitingPending") : t("customer.rejected")}
              </p>
              {order.status === "pending" ? (
                <WhyItWaits reason={order.waitReason} hours={approvalHours} />
              ) : null}
              {order.status === "rejected" && order.rejectReason ? (
                <p className="text-sm">
                  {t("customer.rejectReason")}{" "}
                  <span className="user-text" dir="auto">
                    {order.rejectReason}
                  </span>
                </p>
              ) : null}
            </div>
            <OrderStatusBadge status={order.status} />
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}

export function OrdersList({
  orders,
  locale,
  approvalHours,
}: {
  orders: OrderRow[];
  locale: string;
  /** How long approving an order usually takes, said under each pending one. */
  approvalHours: number;
}) {
  const { t } = useTranslation("services");
  const date = mediumDate(locale);
  return (
    <ListCard
      title={t("customer.ordersTitle")}
      items={orders}
      empty={t("customer.ordersEmpty")}
      className="divide-y"
    >
      {(order) => (
        <li key={order.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
          <div>
            <p className="font-medium">
              #{order.id} {order.productName}{" "}
              <span className="text-muted-foreground" dir="auto">
                {order.serverName}
              </span>
            </p>
            <p className="text-sm text-muted-foreground">
              {date.format(new Date(order.createdAt))} ·{" "}
              <span dir="ltr">{formatEuros(order.totalCents, locale)}</span>
              {order.rejectReason ? ` · ${order.rejectReason}` : ""}
            </p>
            {order.status === "pending" ? (
              <WhyItWaits reason={order.waitReason} hours={approvalHours} />
            ) : null}
          </div>
          <OrderStatusBadge status={order.status} />
        </li>
      )}
    </ListCard>
  );
}
