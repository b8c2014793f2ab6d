import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { clientPath } from "~/components/ui/client-link";
import { Moment } from "~/components/ui/moment";
import type { ClientSummary } from "~/domain/clients/clients";
import {
  badgeTone,
  displayStatus,
  expiryPassed,
  SERVICE_STATUS_LABELS,
} from "~/domain/hosting-services/hosting-services";
import { ORDER_STATUS_LABELS } from "~/domain/orders/orders";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDate } from "~/lib/intl-format";
import { formatEuros } from "~/lib/money";
import { LedgerReason, useLedgerKind } from "./client-detail-reason";
import { signedCoins } from "~/components/data-table/column-presets";

/** One part of the summary: its heading, its lines, or the line saying there is none. */
function Part({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: string;
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="grid gap-1">
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {empty ? (
        <p className="text-muted-foreground">{empty}</p>
      ) : (
        <ul className="grid gap-2">{children}</ul>
      )}
    </section>
  );
}

/**
 * The admin ticket page's sidebar about the ticket's customer: their newest services, orders and coin
 * movements, and the way to their client page for the rest.
 */
export function ClientSummaryPanel({
  userId,
  client,
  locale,
  now,
}: {
  userId: string;
  client: ClientSummary;
  locale: string;
  /**
   * The loader's moment (ISO): "Expires" or "Expired" and the badges are read against it, not this
   * render's clock, so the browser's hydration says what the server's page did.
   */
  now: string;
}) {
  const { t } = useTranslation("admin-clients");
  const { t: tServices } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const ledgerKind = useLedgerKind();
  const date = mediumDate(locale);
  const clock = new Date(now);
  const { services, orders, ledger, counts } = client;
  return (
    <div className="grid gap-4 rounded-lg border bg-background p-4 text-sm">
      <Part
        id="client-services"
        title={t("sidebar.services", { active: counts.activeServices })}
        empty={services.rows.length === 0 ? t("services.empty") : null}
      >
        {services.rows.map((service) => {
          const shown = displayStatus(service.status, service.expiresAt, clock);
          return (
            <li key={service.id} className="flex flex-wrap items-center justify-between gap-x-2">
              <span className="min-w-0 wrap-anywhere" dir="auto">
                #{service.id} {service.name}
              </span>
              <Badge tone={badgeTone(shown)}>{tServices(SERVICE_STATUS_LABELS[shown])}</Badge>
              <span className="w-full text-xs text-muted-foreground">
                {t(expiryPassed(service.expiresAt, clock) ? "sidebar.expired" : "sidebar.expires", {
                  date: date.format(new Date(service.expiresAt)),
                })}
              </span>
            </li>
          );
        })}
      </Part>
      <Part
        id="client-orders"
        title={t("sidebar.orders", { pending: counts.pendingOrders })}
        empty={orders.rows.length === 0 ? t("orders.empty") : null}
      >
        {orders.rows.map((order) => (
          <li key={order.id} className="flex flex-wrap items-center justify-between gap-x-2">
            <Link
              to={`/admin/orders?id=${order.id}`}
              className="min-w-0 text-primary underline wrap-anywhere hover:no-underline"
            >
              #{order.id} <bdi>{order.productName}</bdi>
            </Link>
            <Badge tone={badgeTone(order.status)}>
              {tOrders(ORDER_STATUS_LABELS[order.status])}
            </Badge>
            <span className="w-full text-xs text-muted-foreground">
              <span dir="ltr">{formatEuros(order.totalCents, locale)}</span> ·{" "}
              {date.format(new Date(order.createdAt))}
            </span>
          </li>
        ))}
      </Part>
      <Part
        id="client-coins"
        title={t("sidebar.coins")}
        empty={ledger.rows.length === 0 ? t("ledger.empty") : null}
      >
        {ledger.rows.map((entry) => (
          <li key={entry.id} className="grid gap-0.5">
            <span className="flex flex-wrap justify-between gap-x-2">
              <span>{ledgerKind(entry.kind)}</span>
              <span
                className={`font-mono ${entry.amountCents > 0 ? "text-green-700" : "text-destructive"}`}
                dir="ltr"
              >
                {signedCoins(entry.amountCents, locale)}
              </span>
            </span>
            <span className="text-xs text-muted-foreground">
              <Moment at={entry.createdAt} format={date} />
              {entry.reason ? (
                <>
                  {" · "}
                  <LedgerReason entry={entry} />
                </>
              ) : null}
            </span>
          </li>
        ))}
      </Part>
      <Link to={clientPath(userId)} className="w-fit text-primary underline hover:no-underline">
        {t("sidebar.open")}
      </Link>
    </div>
  );
}
