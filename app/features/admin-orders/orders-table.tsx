import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { Pager, SimpleTable } from "~/components/data-table/simple-table";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { badgeTone } from "~/domain/hosting-services/hosting-services";
import {
  BACKUP_LABELS,
  BILLING_CYCLE_NAMES,
  LOCATION_LABELS,
  ORDER_STATUS_LABELS,
  ORDER_STATUSES,
  type Backup,
  type BillingCycle,
  type Location,
  type OrderStatus,
} from "~/domain/orders/orders";
import { formatEuros } from "~/lib/money";
import { messageKey } from "~/lib/message-key";
import { StatusMessage } from "~/components/ui/status-message";
import { dateTimeFormat } from "~/lib/intl-format";
import type { AdminOrderView } from "~/domain/orders/orders";

export type AdminOrderRow = Pick<
  AdminOrderView,
  | "id"
  | "userEmail"
  | "userName"
  | "productName"
  | "billingCycle"
  | "location"
  | "ddosProtection"
  | "playerSlots"
  | "backup"
  | "serverName"
  | "voucherCode"
  | "discountCents"
  | "totalCents"
  | "status"
  | "rejectReason"
  | "createdAt"
>;

export function OrdersTable({
  orders,
  status,
  page,
  hasMore,
  locale,
  result,
}: {
  orders: AdminOrderRow[];
  status?: OrderStatus;
  page: number;
  hasMore: boolean;
  locale: string;
  result?: { ok: boolean; message: string; params?: Record<string, string | number> };
}) {
  const { t } = useTranslation("orders");
  const busy = useNavigation().state !== "idle";
  const tr = t as (key: string, options?: object) => string;
  const date = dateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "short",
  });
  const filterHref = (s?: string) => (s ? `?status=${s}` : "?");
  return (
    <main className="grid gap-4">
      <h1 className="text-2xl font-bold">{t("admin.title")}</h1>
      <nav aria-label={t("admin.filter")} className="flex flex-wrap gap-2">
        {[undefined, ...ORDER_STATUSES].map((s) => (
          <Button key={s ?? "all"} asChild size="sm" variant={s === status ? "default" : "outline"}>
            <Link to={filterHref(s)} aria-current={s === status ? "page" : undefined}>
              {s ? t(ORDER_STATUS_LABELS[s]) : t("admin.all")}
            </Link>
          </Button>
        ))}
      </nav>
      {result ? (
        <StatusMessage ok={result.ok}>
          {tr(messageKey(result.message), result.params)}
        </StatusMessage>
      ) : null}
      {orders.length === 0 ? (
        <p className="text-muted-foreground">{t("admin.empty")}</p>
      ) : (
        <SimpleTable
          caption={t("admin.title")}
          head={[
            t("admin.order"),
            t("admin.customer"),
            t("admin.product"),
            t("admin.options"),
            t("admin.total"),
            t("admin.status"),
            t("admin.actions"),
          ]}
        >
          {orders.map((order) => (
            <tr key={order.id} className="align-top">
              <td className="px-3 py-2 font-mono">
                #{order.id}
                <div className="text-xs text-muted-foreground">
                  {date.format(new Date(order.createdAt))}
                </div>
              </td>
              <td className="px-3 py-2">
                {order.userName}
                <div className="text-xs text-muted-foreground" dir="ltr">
                  {order.userEmail}
                </div>
              </td>
              <td className="px-3 py-2">
                {order.productName}
                <div className="text-xs text-muted-foreground" dir="auto">
                  {order.serverName}
                </div>
              </td>
              <td className="px-3 py-2 text-xs">
                {t("admin.optionsLine", {
                  cycle: t(BILLING_CYCLE_NAMES[order.billingCycle as BillingCycle]),
                  location: t(LOCATION_LABELS[order.location as Location]),
                  ddos: order.ddosProtection ? t("form.yes") : t("form.no"),
                  backup: t(BACKUP_LABELS[order.backup as Backup]),
                })}
                {order.playerSlots ? (
                  <div>{t("admin.slots", { count: order.playerSlots })}</div>
                ) : null}
                {order.voucherCode ? (
                  <div>
                    {t("admin.voucher", {
                      code: order.voucherCode,
                      amount: formatEuros(order.discountCents, locale),
                    })}
                  </div>
                ) : null}
              </td>
              <td className="px-3 py-2" dir="ltr">
                {formatEuros(order.totalCents, locale)}
              </td>
              <td className="px-3 py-2">
                <Badge tone={badgeTone(order.status)}>{t(ORDER_STATUS_LABELS[order.status])}</Badge>
                {order.rejectReason ? (
                  <div className="mt-1 text-xs text-muted-foreground" dir="auto">
                    {order.rejectReason}
                  </div>
                ) : null}
              </td>
              <td className="px-3 py-2">
                {order.status === "pending" ? (
                  <div className="grid gap-2">
                    <Form method="post">
                      <input type="hidden" name="intent" value="approve" />
                      <input type="hidden" name="orderId" value={order.id} />
                      <Button type="submit" size="sm" disabled={busy}>
                        {t("admin.approve")}
                      </Button>
                    </Form>
                    <Form method="post" className="flex gap-2">
                      <input type="hidden" name="intent" value="reject" />
                      <input type="hidden" name="orderId" value={order.id} />
                      <Input
                        name="reason"
                        required
                        maxLength={500}
                        aria-label={t("admin.rejectReason", { id: order.id })}
                        placeholder={t("admin.reject")}
                        className="h-9 min-w-32"
                      />
                      <Button type="submit" size="sm" variant="destructive" disabled={busy}>
                        {t("admin.reject")}
                      </Button>
                    </Form>
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </SimpleTable>
      )}
      <Pager
        page={page}
        hasMore={hasMore}
        href={(p) => `?${new URLSearchParams({ ...(status ? { status } : {}), page: String(p) })}`}
        labels={{ previous: t("admin.previous"), next: t("admin.next") }}
      />
    </main>
  );
}
