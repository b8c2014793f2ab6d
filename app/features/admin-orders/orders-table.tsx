import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { byId, CellWithNote, type Column } from "~/components/data-table/data-table";
import { actionsColumn, noteColumn } from "~/components/data-table/column-presets";
import { clientColumn } from "~/components/ui/client-link";
import { ListPage } from "~/components/data-table/list-page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { RejectForm } from "~/components/ui/reject-form";
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
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { mediumDateTime } from "~/lib/intl-format";
import type { AdminOrderView } from "~/domain/orders/orders";

export type AdminOrderRow = Pick<
  AdminOrderView,
  | "id"
  | "userId"
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

/** What approving or rejecting said; `params` fill the message (the order's number and amount). */
export type OrderActionResult = Pick<ActionResult, "ok" | "message"> & {
  params?: Record<string, string | number>;
};

export function OrdersTable({
  orders,
  query: { status, page },
  hasMore,
  locale,
  result,
}: {
  orders: AdminOrderRow[];
  /** The list's filter and page, as the address gave them. */
  query: { status?: OrderStatus; page: number };
  hasMore: boolean;
  locale: string;
  result?: OrderActionResult;
}) {
  const { t } = useTranslation("orders");
  const date = mediumDateTime(locale);
  const filterHref = (s?: string) => (s ? `?status=${s}` : "?");
  const columns: Column<AdminOrderRow>[] = [
    {
      id: "order",
      header: t("admin.order"),
      className: "font-mono",
      cell: (order) => (
        <CellWithNote value={<>#{order.id}</>} note={date.format(new Date(order.createdAt))} />
      ),
    },
    clientColumn(t("admin.customer"), (order) => ({
      userId: order.userId,
      name: order.userName,
      email: order.userEmail,
    })),
    noteColumn("product", t("admin.product"), (order) => [order.productName, order.serverName]),
    {
      id: "options",
      header: t("admin.options"),
      className: "text-xs",
      wide: true,
      cell: (order) => (
        <>
          {t("admin.optionsLine", {
            cycle: t(BILLING_CYCLE_NAMES[order.billingCycle as BillingCycle]),
            // The spec's ids have a text; a location of the settings' list is the admin's own name.
            location: Object.hasOwn(LOCATION_LABELS, order.location)
              ? t(LOCATION_LABELS[order.location as Location])
              : order.location,
            ddos: order.ddosProtection ? t("form.yes") : t("form.no"),
            backup: t(BACKUP_LABELS[order.backup as Backup]),
          })}
          {order.playerSlots ? <div>{t("admin.slots", { count: order.playerSlots })}</div> : null}
          {order.voucherCode ? (
            <div>
              {t("admin.voucher", {
                code: order.voucherCode,
                amount: formatEuros(order.discountCents, locale),
              })}
            </div>
          ) : null}
        </>
      ),
    },
    {
      id: "total",
      header: t("admin.total"),
      dir: "ltr",
      cell: (order) => formatEuros(order.totalCents, locale),
    },
    {
      id: "status",
      header: t("admin.status"),
      cell: (order) => (
        <>
          <Badge tone={badgeTone(order.status)}>{t(ORDER_STATUS_LABELS[order.status])}</Badge>
          {order.rejectReason ? (
            <div className="mt-1 text-xs text-muted-foreground" dir="auto">
              {order.rejectReason}
            </div>
          ) : null}
        </>
      ),
    },
    {
      ...actionsColumn(
        t("admin.actions"),
        (order) =>
          order.status === "pending" ? (
            <div className="grid gap-2">
              <IntentButton intent="approve" fields={{ orderId: order.id }}>
                {t("admin.approve")}
              </IntentButton>
              <RejectForm
                fields={{ orderId: order.id }}
                maxLength={500}
                reasonLabel={t("admin.rejectReason", { id: order.id })}
                placeholder={t("admin.reasonPlaceholder")}
                className="flex gap-2"
              >
                {t("admin.reject")}
              </RejectForm>
            </div>
          ) : null,
        // On a phone card the approve and reject buttons take the card's whole width, above the order.
        { wide: true },
      ),
      // A decided order has no buttons: its card starts with the order, not with an empty line.
      present: (order) => order.status === "pending",
    },
  ];
  return (
    <ListPage
      className="grid gap-4"
      header={<h1 className="text-2xl font-bold">{t("admin.title")}</h1>}
      filters={
        <nav aria-label={t("admin.filter")} className="flex flex-wrap gap-2">
          {[undefined, ...ORDER_STATUSES].map((s) => (
            <Button
              key={s ?? "all"}
              asChild
              size="sm"
              variant={s === status ? "default" : "outline"}
            >
              <Link to={filterHref(s)} aria-current={s === status ? "page" : undefined}>
                {s ? t(ORDER_STATUS_LABELS[s]) : t("admin.all")}
              </Link>
            </Button>
          ))}
        </nav>
      }
      table={{
        caption: t("admin.title"),
        columns,
        rows: orders,
        rowKey: byId,
        phone: "scroll",
        rowClassName: "align-top",
      }}
      empty={t("admin.empty")}
      pager={{
        page,
        hasMore,
        href: (p) => `?${new URLSearchParams({ ...(status ? { status } : {}), page: String(p) })}`,
        labels: { previous: t("admin.previous"), next: t("admin.next") },
      }}
    >
      {result ? <ResultMessage result={result} values={result.params} /> : null}
    </ListPage>
  );
}
