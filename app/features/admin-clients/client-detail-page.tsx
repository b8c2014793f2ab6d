import { LANGUAGE_NAMES } from "~/components/layout/language-switcher";
import { CoinsIcon, LifeBuoyIcon, ServerIcon, ShoppingCartIcon } from "lucide-react";
import { useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { CellWithNote, timeColumn, type Column } from "~/components/data-table/data-table";
import {
  amountColumn,
  badgeColumn,
  coinMovementColumns,
  column,
} from "~/components/data-table/column-presets";
import { Badge } from "~/components/ui/badge";
import { TitledCard } from "~/components/ui/card";
import { EmailAddress } from "~/components/ui/email-address";
import { FormCard, FormFields, type FieldSpec } from "~/components/ui/form-card";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultText, type ActionResult } from "~/components/ui/result-message";
import { StatCards } from "~/components/ui/stat-cards";
import { Moment } from "~/components/ui/moment";
import {
  CLIENT_ROLE_LABELS,
  CLIENT_STATUS_LABELS,
  clientLabel,
  MAX_CLIENT_NOTE_LENGTH,
  type ClientDetail,
} from "~/domain/clients/clients";
import type { CustomerLedgerEntry } from "~/domain/customer-dashboard/customer-dashboard";
import {
  badgeTone,
  displayStatus,
  SERVICE_STATUS_LABELS,
  type HostingService,
} from "~/domain/hosting-services/hosting-services";
import { BILLING_CYCLE_NAMES, ORDER_STATUS_LABELS, type Order } from "~/domain/orders/orders";
import { TICKET_STATUS_LABELS, ticketTone, type Ticket } from "~/domain/tickets/tickets";
import { isLocale } from "~/i18n/locales";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDate, mediumDateTime } from "~/lib/intl-format";
import { formatCoins, formatEuros } from "~/lib/money";
import { LedgerReason, useLedgerKind } from "./client-detail-reason";
import { useAuditColumns } from "./client-detail-audit";
import {
  ProfileLine,
  recordLists,
  Section,
  useInvoiceColumns,
  useMailColumns,
  useTopUpColumns,
} from "./client-detail-sections";
import { TwoFactorSection } from "./two-factor-reset";
import { ViewAsButton } from "./view-as-button";

/**
 * What the page's last form said: saving the note (after a refusal, what was typed) or turning off the
 * client's two-factor sign-in; `form` says which, so each card shows only its own.
 */
export type ClientNoteResult = ActionResult & { form?: "note" | "twoFactor" };

/** /admin/clients/:id: one account, everything about it on one page, and the admin's note. */
export function ClientDetailPage({
  client,
  own,
  locale,
  now,
  result,
  viewAs = false,
}: {
  client: ClientDetail;
  /** The client is the admin reading the page. */
  own: boolean;
  locale: string;
  /**
   * The loader's moment (ISO): the services' badges are read against it, not this render's clock, so the
   * browser's hydration shows what the server's page did even when an expiry passed in between.
   */
  now: string;
  result?: ClientNoteResult;
  /** The reader's role may view the site as this account, an active customer's (ADR 57). */
  viewAs?: boolean;
}) {
  const { t } = useTranslation("admin-clients");
  const { t: tCommon } = useTranslation("common");
  const { t: tServices } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const { t: tTickets } = useTranslation("tickets");
  const ledgerKind = useLedgerKind();
  const invoiceColumns = useInvoiceColumns(locale, mediumDateTime(locale));
  const topUpColumns = useTopUpColumns(locale, mediumDateTime(locale));
  const mailColumns = useMailColumns(mediumDateTime(locale), client.profile.email);
  const auditColumns = useAuditColumns(mediumDateTime(locale), client.profile.email);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "note";
  const noteResult = result?.form === "twoFactor" ? undefined : result;
  const twoFactorResult = result?.form === "twoFactor" ? result : undefined;
  const { profile, counts } = client;
  const date = mediumDate(locale);
  const moment = mediumDateTime(locale);
  const clock = new Date(now);
  const email = encodeURIComponent(profile.email);
  const role = clientLabel(CLIENT_ROLE_LABELS, profile.role);
  const status = clientLabel(CLIENT_STATUS_LABELS, profile.status);
  const language = isLocale(profile.locale) ? LANGUAGE_NAMES[profile.locale] : undefined;

  const serviceColumns: Column<HostingService>[] = [
    column(
      "service",
      t("services.service"),
      (service) => (
        <CellWithNote
          value={
            <span className="font-medium" dir="auto">
              #{service.id} {service.name}
            </span>
          }
          note={service.serverName}
          dir="auto"
        />
      ),
      { wide: true },
    ),
    badgeColumn(
      "status",
      t("services.status"),
      (service) => {
        const shown = displayStatus(service.status, service.expiresAt, clock);
        return { tone: badgeTone(shown), text: tServices(SERVICE_STATUS_LABELS[shown]) };
      },
      { label: true },
    ),
    timeColumn({
      id: "expires",
      name: t("services.expires"),
      at: (service) => service.expiresAt,
      format: date,
    }),
    column("price", t("services.price"), (service) => (
      <CellWithNote
        value={
          <span className="font-mono" dir="ltr">
            {formatEuros(service.cyclePriceCents, locale)}
          </span>
        }
        note={tOrders(BILLING_CYCLE_NAMES[service.billingCycle])}
      />
    )),
  ];

  const orderColumns: Column<Order>[] = [
    column("order", t("orders.order"), (order) => (
      <Link
        to={`/admin/orders?id=${order.id}`}
        className="font-mono text-primary underline hover:no-underline"
      >
        #{order.id}
      </Link>
    )),
    timeColumn({
      id: "placed",
      name: t("orders.placed"),
      at: (order) => order.createdAt,
      format: moment,
    }),
    column(
      "product",
      t("orders.product"),
      (order) => <CellWithNote value={order.productName} note={order.serverName} dir="auto" />,
      { wide: true },
    ),
    amountColumn("total", t("orders.total"), (order) => formatEuros(order.totalCents, locale)),
    badgeColumn(
      "status",
      t("orders.status"),
      (order) => ({
        tone: badgeTone(order.status),
        text: tOrders(ORDER_STATUS_LABELS[order.status]),
      }),
      { label: true },
    ),
  ];

  const ticketColumns: Column<Ticket>[] = [
    column(
      "subject",
      t("tickets.subject"),
      (ticket) => (
        <Link
          to={`/admin/tickets/${ticket.id}`}
          className="font-medium text-primary underline hover:no-underline"
          dir="auto"
        >
          #{ticket.id} {ticket.subject}
        </Link>
      ),
      { wide: true },
    ),
    badgeColumn(
      "status",
      t("tickets.status"),
      (ticket) => ({
        tone: ticketTone(ticket.status),
        text: tTickets(TICKET_STATUS_LABELS[ticket.status]),
      }),
      { label: true },
    ),
    timeColumn({
      id: "updated",
      name: t("tickets.updated"),
      at: (ticket) => ticket.updatedAt,
      format: moment,
    }),
  ];

  const ledgerColumns: Column<CustomerLedgerEntry>[] = [
    timeColumn({
      id: "when",
      name: t("ledger.when"),
      at: (entry) => entry.createdAt,
      format: moment,
    }),
    column("kind", t("ledger.kind"), (entry) => <span>{ledgerKind(entry.kind)}</span>),
    ...coinMovementColumns<CustomerLedgerEntry>(
      { amount: t("ledger.amount"), balance: t("ledger.balanceAfter") },
      locale,
    ),
    column("reason", t("ledger.reason"), (entry) => <LedgerReason entry={entry} />, {
      wide: true,
      present: (entry) => Boolean(entry.reason),
    }),
  ];

  const noteFields: FieldSpec[] = [
    {
      kind: "textarea",
      name: "note",
      label: t("note.label"),
      hint: t("note.hint"),
      variant: "form",
      rows: 4,
      maxLength: MAX_CLIENT_NOTE_LENGTH,
      dir: "auto",
    },
  ];
  const deleted = profile.status === "deleted";
  const wholeList = {
    ...recordLists(profile.email),
    services: `/admin/services?q=${email}`,
    ledger: `/admin/transactions?customer=${email}`,
    audit: `/admin/logs?target=${email}`,
  };

  return (
    <main className="grid min-w-0 gap-6">
      <Link to="/admin/clients" className="w-fit text-sm text-primary hover:underline">
        {t("back")}
      </Link>
      <PageHeading
        title={profile.name}
        intro={t("intro")}
        action={viewAs ? <ViewAsButton customerId={profile.id} /> : undefined}
      >
        <p className="flex flex-wrap gap-2">
          <Badge tone={profile.role === "admin" ? "blue" : "grey"}>
            {role ? t(role) : profile.role}
          </Badge>
          <Badge tone={deleted ? "red" : "green"}>{status ? t(status) : profile.status}</Badge>
          {profile.deletionRequestedAt ? (
            <Badge tone="yellow">
              {t("profile.deletionRequested", {
                date: date.format(new Date(profile.deletionRequestedAt)),
              })}
            </Badge>
          ) : null}
        </p>
      </PageHeading>

      <StatCards
        size="md"
        stats={[
          {
            icon: <CoinsIcon />,
            label: t("stats.balance"),
            value: formatCoins(profile.coinBalanceCents, locale),
            to: "#ledger",
          },
          {
            icon: <ServerIcon />,
            label: t("stats.activeServices"),
            value: counts.activeServices,
            to: "#services",
          },
          {
            icon: <ShoppingCartIcon />,
            label: t("stats.pendingOrders"),
            value: counts.pendingOrders,
            to: "#orders",
          },
          {
            icon: <LifeBuoyIcon />,
            label: t("stats.openTickets"),
            value: counts.openTickets,
            to: "#tickets",
          },
        ]}
      />

      <div className="grid min-w-0 gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <TitledCard title={t("profile.title")}>
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            <ProfileLine label={t("profile.name")}>
              <span dir="auto">{profile.name}</span>
            </ProfileLine>
            <ProfileLine label={t("profile.email")}>
              <EmailAddress email={profile.email} />
            </ProfileLine>
            <ProfileLine label={t("profile.language")}>
              {language ? tCommon(language) : t("profile.noLanguage")}
            </ProfileLine>
            <ProfileLine label={t("profile.registered")}>
              <Moment at={profile.createdAt} format={date} />
            </ProfileLine>
            <ProfileLine label={t("profile.role")}>{role ? t(role) : profile.role}</ProfileLine>
            <ProfileLine label={t("profile.status")}>
              {status ? t(status) : profile.status}
            </ProfileLine>
            <ProfileLine label={t("profile.balance")}>
              <span className="font-mono" dir="ltr">
                {formatCoins(profile.coinBalanceCents, locale)}
              </span>
            </ProfileLine>
            <ProfileLine label={t("twoFactor.label")}>
              <TwoFactorSection profile={profile} own={own} result={twoFactorResult} />
            </ProfileLine>
          </dl>
          {deleted ? null : (
            <p className="mt-4 text-sm">
              <Link
                to={`/admin/clients?q=${email}`}
                className="text-primary underline hover:no-underline"
              >
                {t("profile.manage")}
              </Link>
            </p>
          )}
        </TitledCard>

        {deleted ? (
          <TitledCard title={t("note.title")} empty={t("note.deleted")} />
        ) : (
          <FormCard
            id="note"
            title={t("note.title")}
            description={t("note.description")}
            status={
              noteResult ? { ok: noteResult.ok, text: <ResultText result={noteResult} /> } : null
            }
            busy={busy}
            submit={{ label: t("note.save"), busyLabel: t("note.saving") }}
          >
            <FormFields
              fields={noteFields}
              idPrefix="client"
              values={noteResult?.values ?? { note: profile.adminNote ?? "" }}
              errors={noteResult?.fieldErrors}
            />
          </FormCard>
        )}
      </div>

      <Section
        id="services"
        list={client.services}
        columns={serviceColumns}
        all={wholeList.services}
      />
      <Section id="orders" list={client.orders} columns={orderColumns} />
      <Section id="tickets" list={client.tickets} columns={ticketColumns} />
      <Section
        id="invoices"
        list={client.invoices}
        columns={invoiceColumns}
        all={wholeList.invoices}
      />
      <Section id="topUps" list={client.topUps} columns={topUpColumns} all={wholeList.topUps} />
      <Section id="mail" list={client.mail} columns={mailColumns} all={wholeList.mail} />
      <Section id="ledger" list={client.ledger} columns={ledgerColumns} all={wholeList.ledger} />
      <Section id="audit" list={client.audit} columns={auditColumns} all={wholeList.audit} />
    </main>
  );
}

/** /admin/clients/:id for an id no account has: says so, and leads back to the list. */
export function ClientNotFound({ id }: { id: string | undefined }) {
  const { t } = useTranslation("admin-clients");
  return (
    <main className="grid min-w-0 gap-4">
      <PageHeading title={t("notFound.title")} intro={t("notFound.text", { id: id ?? "" })} />
      <Link to="/admin/clients" className="w-fit text-sm text-primary underline hover:no-underline">
        {t("back")}
      </Link>
    </main>
  );
}
