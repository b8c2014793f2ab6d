import { CoinsIcon, GlobeIcon, LifeBuoyIcon, ServerIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { DataTable } from "~/components/data-table/data-table";
import { AnnouncementList } from "~/components/ui/announcement-list";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle, TitledCard } from "~/components/ui/card";
import { ListCard } from "~/components/ui/list-card";
import { StatCards } from "~/components/ui/stat-cards";
import { LEDGER_KIND_LABELS, type LedgerKind } from "~/domain/coins/coins";
import { ledgerReasonText } from "~/domain/coins/ledger-reason";
import { ORDER_STATUS_LABELS, type OrderStatus } from "~/domain/orders/orders";
import {
  CUSTOMER_TICKET_STATUS_LABELS,
  ticketTone,
  type Ticket,
  type TicketStatus,
} from "~/domain/tickets/tickets";
import type { ShownAnnouncement } from "~/domain/announcements/announcements";
import {
  DASHBOARD_TABS,
  dashboardTabPath,
  type CustomerLedgerEntry,
  type DashboardActivity,
  type DashboardCards,
  type DashboardTab,
} from "~/domain/customer-dashboard/customer-dashboard";
import type { HostingService } from "~/domain/hosting-services/hosting-services";
import { formatCoins } from "~/lib/money";
import { cn } from "~/lib/utils";
import { mediumDate, mediumDateTime } from "~/lib/intl-format";
import { AddressNotice, type AddressState } from "./address-notice";
import { addCoinsPath, type CoinPurchaseWay } from "~/components/layout/coin-dialog";

/** Dashboard namespace keys, written out so the catalogue test sees each one in use. */
const TAB_LABELS = {
  overview: "tabs.overview",
  services: "tabs.services",
  domains: "tabs.domains",
  billing: "tabs.billing",
  support: "tabs.support",
  account: "tabs.account",
  referrals: "tabs.referrals",
} as const satisfies Record<DashboardTab, string>;

export function DashboardShell({
  name,
  tab,
  cards,
  locale,
  children,
  address,
}: {
  name: string;
  tab: string;
  cards: DashboardCards;
  locale: string;
  children: ReactNode;
  /** The account's address: unverified, a notice asks to confirm it (docs/accounts.md). */
  address?: AddressState;
}) {
  const { t } = useTranslation("dashboard");
  const { t: tCommon } = useTranslation();
  const { t: tServices } = useTranslation("services");
  return (
    // One column no wider than the screen, and the name broken anywhere: a name is what the customer typed,
    // up to 100 characters without a space.
    <main className="mx-auto grid max-w-6xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="min-w-0 text-3xl font-bold wrap-anywhere">
          {tCommon("dashboard.welcome", { name })}
        </h1>
        <Button asChild>
          <Link to="/order">{tServices("customer.orderNew")}</Link>
        </Button>
      </div>
      {address ? <AddressNotice address={address} /> : null}
      <StatCards
        size="md"
        stats={[
          {
            icon: <ServerIcon />,
            label: t("cards.activeServices"),
            value: String(cards.activeServices),
          },
          { icon: <GlobeIcon />, label: t("cards.domains"), value: String(cards.domains) },
          {
            icon: <LifeBuoyIcon />,
            label: t("cards.openTickets"),
            value: String(cards.openTickets),
          },
          {
            icon: <CoinsIcon />,
            label: t("cards.accountCredit"),
            // In coins, as the header's balance and every other page name it (1 coin = €1.00); <bdi>
            // keeps "4,50 كوين" in Arabic order inside the card's left-to-right figure.
            value: (
              <bdi>
                {tCommon("nav.coinBalance", {
                  amount: formatCoins(cards.accountCreditCents, locale),
                })}
              </bdi>
            ),
          },
        ]}
      />
      {/* On a phone the sections are rows of three, every one in sight: a strip that scrolled
          sideways hid "Support" and "Account" with nothing saying there was more. */}
      <nav aria-label={t("tabs.label")} className="grid grid-cols-3 border-b sm:flex sm:gap-1">
        {/* Each tab is a route of its own; the layout says which one is open (`tab`). */}
        {DASHBOARD_TABS.map((id) => (
          <Link
            key={id}
            to={dashboardTabPath(id)}
            aria-current={tab === id ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-center text-sm font-medium sm:whitespace-nowrap",
              tab === id
                ? "border-primary text-primary"
                : "border-transparent text-muted-foreground hover:text-foreground",
            )}
          >
            {t(TAB_LABELS[id])}
          </Link>
        ))}
      </nav>
      {children}
    </main>
  );
}

export function OverviewTab({
  announcements,
  activity,
  renewals,
  locale,
}: {
  announcements: ShownAnnouncement[];
  activity: DashboardActivity[];
  renewals: Pick<HostingService, "id" | "name" | "serverName" | "expiresAt">[];
  locale: string;
}) {
  const { t } = useTranslation("dashboard");
  const { t: tCoins } = useTranslation("coins");
  const { t: tOrders } = useTranslation("orders");
  const { t: tTickets } = useTranslation("tickets");
  const date = mediumDate(locale);
  const label = (item: (typeof activity)[number]) => {
    if (item.type === "ledger") return tCoins(LEDGER_KIND_LABELS[item.kind as LedgerKind]);
    if (item.type === "order") return tOrders(ORDER_STATUS_LABELS[item.kind as OrderStatus]);
    return tTickets(CUSTOMER_TICKET_STATUS_LABELS[item.kind as TicketStatus]);
  };
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {announcements.length > 0 ? (
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>{t("overview.announcements")}</CardTitle>
          </CardHeader>
          <CardContent>
            <AnnouncementList announcements={announcements} label={t("overview.announcements")} />
          </CardContent>
        </Card>
      ) : null}
      <ListCard
        title={t("overview.activity")}
        items={activity}
        empty={t("overview.noActivity")}
        className="divide-y text-sm"
      >
        {(item, index) => (
          <li key={index} className="flex justify-between gap-3 py-2">
            <span>
              <span className="font-medium">{label(item)}</span> ·{" "}
              <span dir="auto">
                {item.reason
                  ? ledgerReasonText(item.reason, (key, params) => tCoins(key, params))
                  : item.text}
              </span>
            </span>
            <span className="whitespace-nowrap text-muted-foreground">
              {date.format(new Date(item.at))}
            </span>
          </li>
        )}
      </ListCard>
      <ListCard
        title={t("overview.renewals")}
        items={renewals}
        empty={t("overview.noRenewals")}
        className="divide-y text-sm"
      >
        {(s) => (
          <li key={s.id} className="flex justify-between gap-3 py-2">
            <span>
              {s.name} <span dir="auto">{s.serverName}</span>
            </span>
            <span>{date.format(new Date(s.expiresAt))}</span>
          </li>
        )}
      </ListCard>
    </div>
  );
}

export function DomainsTab() {
  const { t } = useTranslation("dashboard");
  return (
    <Card>
      <CardContent className="pt-6 text-muted-foreground">{t("domains.empty")}</CardContent>
    </Card>
  );
}

/**
 * The billing tab's way to buy coins: the top-up page while a payment method is open, else the coins
 * page that says how to reach the team (docs/payments.md); nothing while coin purchase is closed.
 */
export function AddCoinsLink({ way }: { way: CoinPurchaseWay }) {
  const { t } = useTranslation();
  if (way === "closed") return null;
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild>
        <Link to={addCoinsPath(way)}>{t("coins.addCoins")}</Link>
      </Button>
    </div>
  );
}

export function LedgerTable({
  entries,
  nextBefore,
  hasNewer,
  locale,
}: {
  entries: CustomerLedgerEntry[];
  nextBefore: number | null;
  /** A later page: "Newer" leads back to the first. */
  hasNewer: boolean;
  locale: string;
}) {
  const { t } = useTranslation("dashboard");
  const { t: tCoins } = useTranslation("coins");
  const date = mediumDateTime(locale);
  return (
    <TitledCard title={t("billing.ledger")}>
      {entries.length === 0 ? (
        <p className="text-muted-foreground">{t("billing.empty")}</p>
      ) : (
        <DataTable
          phone="scroll"
          rows={entries}
          rowKey={(e) => e.id}
          columns={[
            {
              id: "date",
              header: t("billing.date"),
              className: "whitespace-nowrap",
              cell: (e) => date.format(new Date(e.createdAt)),
            },
            {
              id: "kind",
              header: t("billing.kind"),
              cell: (e) => tCoins(LEDGER_KIND_LABELS[e.kind as LedgerKind]),
            },
            {
              id: "amount",
              header: t("billing.amount"),
              className: (e) =>
                cn("font-mono", e.amountCents < 0 ? "text-destructive" : "text-green-700"),
              dir: "ltr",
              cell: (e) => (
                <>
                  {e.amountCents > 0 ? "+" : "−"}
                  {formatCoins(Math.abs(e.amountCents), locale)}
                </>
              ),
            },
            {
              id: "balance",
              header: t("billing.balanceAfter"),
              className: "font-mono",
              dir: "ltr",
              cell: (e) => formatCoins(e.balanceAfterCents, locale),
            },
            {
              id: "reason",
              header: t("billing.reason"),
              dir: "auto",
              cell: (e) => ledgerReasonText(e, (key, params) => tCoins(key, params)),
            },
          ]}
        />
      )}
      <div className="mt-3 flex justify-between text-sm">
        {hasNewer ? (
          <Link to={dashboardTabPath("billing")} className="text-primary hover:underline">
            {t("billing.newer")}
          </Link>
        ) : (
          <span />
        )}
        {nextBefore ? (
          <Link
            to={`${dashboardTabPath("billing")}?before=${nextBefore}`}
            className="text-primary hover:underline"
          >
            {t("billing.older")}
          </Link>
        ) : null}
      </div>
    </TitledCard>
  );
}

export function SupportTab({
  tickets,
  ticketsOpen,
  locale,
}: {
  tickets: Pick<Ticket, "id" | "subject" | "status" | "priority" | "updatedAt">[];
  /** With tickets switched off, no New Ticket button (the tickets already open stay listed). */
  ticketsOpen: boolean;
  locale: string;
}) {
  const { t } = useTranslation("tickets");
  const date = mediumDate(locale);
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>{t("list.title")}</CardTitle>
        {ticketsOpen ? (
          <Button asChild size="sm">
            <Link to="/support/new">{t("list.newTicket")}</Link>
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {tickets.length === 0 ? (
          <p className="text-muted-foreground">{t("list.empty")}</p>
        ) : (
          <ul className="divide-y">
            {tickets.map((ticket) => (
              <li
                key={ticket.id}
                className="flex flex-wrap items-center justify-between gap-2 py-3"
              >
                <Link
                  to={`/support/${ticket.id}`}
                  className="min-w-0 font-medium wrap-anywhere text-primary hover:underline"
                  dir="auto"
                >
                  #{ticket.id} {ticket.subject}
                </Link>
                <span className="flex items-center gap-2 text-sm text-muted-foreground">
                  {t("list.updated", { date: date.format(new Date(ticket.updatedAt)) })}
                  <Badge tone={ticketTone(ticket.status as TicketStatus)}>
                    {t(CUSTOMER_TICKET_STATUS_LABELS[ticket.status as TicketStatus])}
                  </Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
