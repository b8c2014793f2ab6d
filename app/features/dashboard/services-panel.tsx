import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle, TitledCard } from "~/components/ui/card";
import {
  badgeTone,
  canRenew,
  displayStatus,
  SERVICE_STATUS_LABELS,
  type HostingService,
} from "~/domain/hosting-services/hosting-services";
import { BILLING_CYCLE_NAMES, ORDER_STATUS_LABELS, type Order } from "~/domain/orders/orders";
import { formatEuros } from "~/lib/money";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { dateTimeFormat } from "~/lib/intl-format";

type ServiceRow = Pick<
  HostingService,
  | "id"
  | "name"
  | "serverName"
  | "billingCycle"
  | "cyclePriceCents"
  | "monthlyPriceCents"
  | "status"
  | "expiresAt"
>;

type OrderRow = Pick<
  Order,
  "id" | "productName" | "serverName" | "totalCents" | "status" | "createdAt" | "rejectReason"
>;

export function ServicesPanel({
  services,
  renewKeys,
  locale,
  error,
}: {
  services: ServiceRow[];
  renewKeys: Record<number, string>;
  locale: string;
  error?: { message: MessageKey; missingCents?: number };
}) {
  const { t } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const message = useMessage();
  const busy = useNavigation().state !== "idle";
  const date = dateTimeFormat(locale, { dateStyle: "medium" });
  return (
    <div className="grid gap-6">
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
          {message(error.message, {
            missing: formatEuros(error.missingCents ?? 0, locale),
            total: "",
          })}
        </p>
      ) : null}
      <Card>
        <CardHeader className="flex-row items-center justify-between">
          <CardTitle>{t("customer.title")}</CardTitle>
          <Button asChild size="sm">
            <Link to="/order">{t("customer.orderNew")}</Link>
          </Button>
        </CardHeader>
        <CardContent>
          {services.length === 0 ? (
            <p className="text-muted-foreground">{t("customer.empty")}</p>
          ) : (
            <ul className="divide-y">
              {services.map((service) => {
                const shown = displayStatus(service.status, service.expiresAt);
                return (
                  <li
                    key={service.id}
                    className="flex flex-wrap items-center justify-between gap-3 py-3"
                  >
                    <div>
                      <p className="font-medium">
                        {service.name}{" "}
                        <span className="text-muted-foreground" dir="auto">
                          {service.serverName}
                        </span>
                      </p>
                      <p className="text-sm text-muted-foreground">
                        {t("customer.expires", { date: date.format(new Date(service.expiresAt)) })}{" "}
                        · {tOrders(BILLING_CYCLE_NAMES[service.billingCycle])} ·{" "}
                        <span dir="ltr">{formatEuros(service.cyclePriceCents, locale)}</span>
                      </p>
                    </div>
                    <div className="flex items-center gap-3">
                      <Badge tone={badgeTone(shown)}>{t(SERVICE_STATUS_LABELS[shown])}</Badge>
                      {canRenew(service.status) ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="renew" />
                          <input type="hidden" name="serviceId" value={service.id} />
                          <input
                            type="hidden"
                            name="idempotencyKey"
                            value={renewKeys[service.id]}
                          />
                          <Button type="submit" size="sm" variant="outline" disabled={busy}>
                            {t("customer.renewFor", {
                              amount: formatEuros(service.cyclePriceCents, locale),
                            })}
                          </Button>
                        </Form>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

export function OrdersList({ orders, locale }: { orders: OrderRow[]; locale: string }) {
  const { t } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const date = dateTimeFormat(locale, { dateStyle: "medium" });
  return (
    <TitledCard
      title={t("customer.ordersTitle")}
      empty={orders.length === 0 ? t("customer.ordersEmpty") : undefined}
    >
      <ul className="divide-y">
        {orders.map((order) => (
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
            </div>
            <Badge tone={badgeTone(order.status)}>
              {tOrders(ORDER_STATUS_LABELS[order.status])}
            </Badge>
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}
