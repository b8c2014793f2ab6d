import { CoinsIcon, GlobeIcon, LifeBuoyIcon, ServerIcon } from "lucide-react";
import type { ReactNode } from "react";
import { CardSubmit } from "./card-submit";
import { useTranslation } from "~/i18n/use-translation";
import type { MessageKey } from "~/i18n/use-message";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { DataTable } from "~/components/data-table/data-table";
import { AnnouncementList } from "~/components/ui/announcement-list";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { Card, CardContent, CardHeader, CardTitle, TitledCard } from "~/components/ui/card";
import { FormFields } from "~/components/ui/form-card";
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
  type CustomerLedgerEntry,
  type DashboardActivity,
  type DashboardCards,
  type DashboardSession,
  type DashboardTab,
} from "~/domain/customer-dashboard/customer-dashboard";
import type { HostingService } from "~/domain/hosting-services/hosting-services";
import { formatCoins } from "~/lib/money";
import { cn } from "~/lib/utils";
import { ResultMessage } from "~/components/ui/result-message";
import { mediumDate, mediumDateTime } from "~/lib/intl-format";
import { compactAddress } from "~/lib/ip-address";
import { describeUserAgent } from "~/lib/user-agent";
import type { PendingDeletion } from "~/domain/accounts/account-deletion";
import { AccountDeletionCard, type DeletionResult } from "./account-deletion";
import { MailPreferencesCard, type MailPreferencesResult } from "./mail-preferences";
import { AddressNotice, type AddressState } from "./address-notice";
import { addCoinsPath, type CoinPurchaseWay } from "~/components/layout/coin-dialog";
import type { OptionalMailKind } from "~/domain/mail/mail";

/** Dashboard namespace keys, written out so the catalogue test sees each one in use. */
const TAB_LABELS = {
  overview: "tabs.overview",
  services: "tabs.services",
  domains: "tabs.domains",
  billing: "tabs.billing",
  support: "tabs.support",
  account: "tabs.account",
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
      {/* On a phone the six sections are two rows of three, every one in sight: a strip that scrolled
          sideways hid "Support" and "Account" with nothing saying there was more. */}
      <nav aria-label={t("tabs.label")} className="grid grid-cols-3 border-b sm:flex sm:gap-1">
        {/* Link, not NavLink: every tab is /dashboard, so NavLink would call each one the current page. */}
        {DASHBOARD_TABS.map((id) => (
          <Link
            key={id}
            to={`/dashboard?tab=${id}`}
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
          <Link to="/dashboard?tab=billing" className="text-primary hover:underline">
            {t("billing.newer")}
          </Link>
        ) : (
          <span />
        )}
        {nextBefore ? (
          <Link
            to={`/dashboard?tab=billing&before=${nextBefore}`}
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

export function AccountTab({
  profile,
  sessions,
  currentSessionId,
  locale,
  result,
  sessionsResult,
  deletion,
  deletionResult,
  mail,
  mailResult,
  twoFactor,
  billing,
  emailChangeByLink = false,
}: {
  /** `pendingEmail`: a change waiting for its link to be followed (docs/accounts.md). */
  profile: { name: string; email: string; pendingEmail?: string | null };
  sessions: Pick<DashboardSession, "id" | "created_at" | "user_agent" | "ip_address">[];
  currentSessionId: string;
  locale: string;
  result?: {
    ok: boolean;
    message: MessageKey;
    fieldErrors?: Partial<Record<string, MessageKey>>;
    /** A throttled current password: minutes until it may be tried again. */
    minutes?: number;
  };
  /** What the sessions card's "End session" answered, shown in that card. */
  sessionsResult?: { ok: boolean; message: MessageKey };
  /** The pending request to delete the account, if any (ADR 19). */
  deletion: PendingDeletion | null;
  deletionResult?: DeletionResult;
  /** The kinds of email the customer receives, of those they may turn off (docs/mail.md). */
  mail: readonly OptionalMailKind[];
  mailResult?: MailPreferencesResult;
  /** The two-factor sign-in card (two-factor-card.tsx), after the sessions. */
  twoFactor?: ReactNode;
  /** The billing details card (billing-details.tsx), after the two-factor card. */
  billing?: ReactNode;
  /** SMTP is set: a new address takes effect once the link sent to it is followed. */
  emailChangeByLink?: boolean;
}) {
  const { t } = useTranslation("dashboard");
  const busy = useNavigation().state !== "idle";
  const date = mediumDateTime(locale);
  const errors = result?.fieldErrors ?? {};
  /** "Firefox 127 on Windows", or as much of it as the header tells. */
  const deviceName = (userAgent: string | null) => {
    const { browser, os } = describeUserAgent(userAgent);
    if (browser && os) return t("account.deviceOn", { browser, os });
    return browser ?? os ?? t("account.unknownDevice");
  };
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <TitledCard title={t("account.profile")}>
        {/* Keyed by the address: once it changes, the form shows the new one and an empty password. */}
        <Form key={profile.email} method="post" className="grid gap-3">
          <input type="hidden" name="intent" value="profile" />
          {result ? <ResultMessage result={result} values={{ count: result.minutes }} /> : null}
          <FormFields
            idPrefix="profile"
            fields={[
              {
                kind: "input",
                name: "name",
                label: t("account.name"),
                required: true,
                maxLength: 100,
              },
              {
                kind: "input",
                name: "email",
                label: t("account.email"),
                type: "email",
                required: true,
                dir: "ltr",
                hint: emailChangeByLink ? t("account.emailByLinkHint") : undefined,
              },
              {
                kind: "input",
                name: "currentPassword",
                id: "profile-current-password",
                label: t("account.currentPassword"),
                hint: t("account.currentPasswordHint"),
                type: "password",
                autoComplete: "current-password",
                maxLength: 128,
                dir: "ltr",
              },
            ]}
            values={{ name: profile.name, email: profile.email }}
            errors={errors}
            errorValues={{ count: result?.minutes }}
          />
          <CardSubmit busy={busy}>{t("account.save")}</CardSubmit>
        </Form>
        {profile.pendingEmail ? (
          <div
            data-testid="pending-email"
            className="mt-4 grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          >
            <p>
              {t("account.pendingEmail")} <bdi dir="ltr">{profile.pendingEmail}</bdi>
            </p>
            <p>{t("account.pendingEmailLogin")}</p>
            <IntentButton intent="cancel-email-change" fields={{}} variant="outline">
              {t("account.cancelEmailChange")}
            </IntentButton>
          </div>
        ) : null}
        <div className="mt-6 border-t pt-4">
          <p className="font-semibold">{t("account.password")}</p>
          <p className="text-sm text-muted-foreground">{t("account.passwordNote")}</p>
          <Button asChild size="sm" variant="outline" className="mt-2">
            <Link to="/account/password">{t("account.changePassword")}</Link>
          </Button>
        </div>
      </TitledCard>
      <TitledCard title={t("account.sessions")}>
        {sessionsResult ? <ResultMessage result={sessionsResult} /> : null}
        <ul className="divide-y text-sm">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              {/* min-w-0: a long browser name truncates instead of widening the page on phones. */}
              <span className="min-w-0">
                {/* The browser and system, not the raw header (which stays in its title). */}
                <span className="block font-medium" title={s.user_agent ?? undefined}>
                  <bdi>{deviceName(s.user_agent)}</bdi>
                </span>
                <span className="text-muted-foreground">
                  {t("account.since", { date: date.format(new Date(s.created_at)) })} ·{" "}
                  <span dir="ltr">{s.ip_address && compactAddress(s.ip_address)}</span>
                </span>
              </span>
              {s.id === currentSessionId ? (
                <Badge tone="green">{t("account.thisDevice")}</Badge>
              ) : (
                <IntentButton intent="end-session" fields={{ sessionId: s.id }} variant="outline">
                  {t("account.endSession")}
                </IntentButton>
              )}
            </li>
          ))}
        </ul>
      </TitledCard>
      {twoFactor}
      {billing}
      <MailPreferencesCard receive={mail} result={mailResult} />
      <AccountDeletionCard pending={deletion} locale={locale} result={deletionResult} />
    </div>
  );
}
