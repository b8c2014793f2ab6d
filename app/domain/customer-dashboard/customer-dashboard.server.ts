import type { Db } from "~/db/transaction";
import { LEDGER_REASON_COLUMNS, storedLedgerReason } from "~/domain/coins/ledger-reason";
import { pendingDeletionRequest } from "~/domain/accounts/account-deletion.server";
import { mailPreferencesOf } from "~/domain/mail/mail-preferences.server";
import { getBillingDetails } from "~/domain/invoices/billing-details.server";
import { listCustomerDocuments } from "~/domain/invoices/documents.server";
import { listActiveAnnouncements } from "~/domain/announcements/announcements.server";
import { listCustomerOrders, listOrdersNotActive } from "~/domain/orders/orders.server";
import { listCustomerTickets, openTicketsCount } from "~/domain/tickets/tickets.server";
import { renewalAmounts, RENEWAL_WINDOW_DAYS } from "~/domain/hosting-services/hosting-services";
import { customerVat } from "~/domain/invoices/invoices";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import { BILLING_CYCLES } from "~/domain/orders/orders";
import {
  activeServicesCount,
  listCustomerServicePage,
  listCustomerServices,
  quoteRenewal,
} from "~/domain/hosting-services/hosting-services.server";
import {
  LEDGER_PAGE_SIZE,
  RECENT_REJECTION_DAYS,
  WAITING_ORDERS_LIMIT,
  type DashboardQuery,
  type WaitingOrder,
  type CustomerLedgerEntry,
  type DashboardActivity,
  type DashboardCards,
  type DashboardSession,
} from "./customer-dashboard";

/**
 * One page of a customer's coin history, newest first, by id: as fast with 5,000 rows as with five.
 * `size` entries a page (the overview shows only the latest few).
 */
export async function listLedgerPage(
  db: Db,
  userId: string,
  before?: number,
  size = LEDGER_PAGE_SIZE,
) {
  let query = db
    .selectFrom("coin_ledger")
    .select([
      "id",
      "amount_cents",
      "balance_after_cents",
      "kind",
      ...LEDGER_REASON_COLUMNS,
      "created_at",
    ])
    .where("user_id", "=", userId);
  if (before) query = query.where("id", "<", before);
  const rows = await query
    .orderBy("id", "desc")
    .limit(size + 1)
    .execute();
  const page = rows.slice(0, size).map((row): CustomerLedgerEntry => ({
    id: Number(row.id),
    amountCents: row.amount_cents,
    balanceAfterCents: row.balance_after_cents,
    kind: row.kind,
    ...storedLedgerReason(row),
    createdAt: row.created_at,
  }));
  return {
    entries: page,
    nextBefore: rows.length > size ? page[page.length - 1]!.id : null,
    /** Whether newer entries come before this page (it was asked for with `before`). */
    hasNewer: Boolean(before),
  };
}

/**
 * The customer's orders that are not services (yet): every pending one and those rejected in the last
 * RECENT_REJECTION_DAYS, newest first, so an order waiting for approval is never "no service yet".
 */
export async function listWaitingOrders(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<WaitingOrder[]> {
  const orders = await listOrdersNotActive(db, userId, {
    rejectedSince: new Date(now.getTime() - RECENT_REJECTION_DAYS * 86_400_000).toISOString(),
    limit: WAITING_ORDERS_LIMIT,
  });
  return orders.map((order) => ({
    id: order.id,
    productName: order.productName,
    serverName: order.serverName,
    billingCycle: order.billingCycle in BILLING_CYCLES ? order.billingCycle : "monthly",
    totalCents: order.totalCents,
    status: order.status === "rejected" ? "rejected" : "pending",
    rejectReason: order.rejectReason,
    createdAt: order.createdAt,
    decidedAt: order.decidedAt,
  }));
}

/**
 * What /dashboard shows a customer: the four cards always, and the data of the chosen tab — their own
 * only; announcements in the customer's `language`.
 */
export async function loadCustomerDashboard(
  db: Db,
  userId: string,
  query: Pick<DashboardQuery, "tab"> & Partial<Omit<DashboardQuery, "tab">>,
  options: {
    /** Announcements in this language. */
    language?: string;
    /** The VAT settings the caller has (the request's cache): what renewing costs. Read when not given. */
    invoicing?: Settings["invoicing"];
  } = {},
) {
  const { language = "en" } = options;
  const invoicing = () =>
    options.invoicing ?? getSettings(db).then((settings) => settings.invoicing);
  const now = new Date();
  const page = query.page ?? 1;
  /** The overview shows the latest few of each list. */
  const latest = { page: 1, pageSize: 5 };
  // The cards in one query (on PostgreSQL each query is a round trip): the account, with its counts,
  // read beside the tab's own queries rather than before them, so a page waits for one round trip less.
  const account = db
    .selectFrom("users")
    .select([
      "coin_balance_cents",
      "name",
      "email",
      // An email change waiting for its link (docs/accounts.md), shown on the account tab.
      "pending_email",
      // The VAT on their prices: what renewing a service costs them.
      "billing_country",
      activeServicesCount(db, userId).as("active_services"),
      openTicketsCount(db, userId).as("open_tickets"),
    ])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const cardsOf = (user: Awaited<typeof account>): DashboardCards => ({
    activeServices: Number(user.active_services),
    domains: 0,
    openTickets: Number(user.open_tickets),
    accountCreditCents: user.coin_balance_cents,
  });

  switch (query.tab) {
    case "overview": {
      const [user, announcements, services, orders, ledger, tickets] = await Promise.all([
        account,
        listActiveAnnouncements(db, "customers", language),
        listCustomerServices(db, userId),
        listCustomerOrders(db, userId, latest),
        listLedgerPage(db, userId, undefined, latest.pageSize),
        listCustomerTickets(db, userId, latest),
      ]);
      const horizon = now.getTime() + RENEWAL_WINDOW_DAYS * 86_400_000;
      // What the overview's renewal list shows of each, not the whole service: the page's data is
      // serialised into it.
      const renewals = services
        .filter((s) => s.status === "active" && Date.parse(s.expiresAt) <= horizon)
        .map(({ id, name, serverName, expiresAt }) => ({ id, name, serverName, expiresAt }));
      const activity: DashboardActivity[] = [
        ...ledger.entries.map((e) => ({
          type: "ledger" as const,
          at: e.createdAt,
          kind: e.kind,
          amountCents: e.amountCents,
          text: e.reason,
          reason: { reason: e.reason, reasonKey: e.reasonKey, reasonParams: e.reasonParams },
        })),
        ...orders.orders.map((o) => ({
          type: "order" as const,
          at: o.createdAt,
          kind: o.status,
          amountCents: o.totalCents,
          text: `#${o.id} ${o.productName}`,
        })),
        ...tickets.tickets.map((tk) => ({
          type: "ticket" as const,
          at: tk.updatedAt,
          kind: tk.status,
          amountCents: 0,
          text: `#${tk.id} ${tk.subject}`,
        })),
      ]
        .sort((a, b) => b.at.localeCompare(a.at))
        .slice(0, 8);
      return { tab: query.tab, cards: cardsOf(user), announcements, renewals, activity };
    }
    case "services": {
      // Every query side by side (one round trip on PostgreSQL), the settings too when not given.
      const [user, { services, hasMore }, waitingOrders, renewal, vatSettings] = await Promise.all([
        account,
        listCustomerServicePage(db, userId, { page }),
        listWaitingOrders(db, userId, now),
        query.renew
          ? quoteRenewal(db, { userId, serviceId: query.renew, invoicing: options.invoicing }, now)
          : undefined,
        invoicing(),
      ]);
      const vat = customerVat(vatSettings, user.billing_country);
      return {
        tab: query.tab,
        cards: cardsOf(user),
        // Each with what renewing it costs, as its confirmation and the charge price it.
        services: services.map((service) => ({
          ...service,
          renewalPriceCents: renewalAmounts(service.cyclePriceCents, vat).totalCents,
        })),
        waitingOrders,
        renewal,
        page,
        hasMore,
        // What the list's "Expires"/"Expired" and badges are read against, here and when the browser
        // hydrates the page: its own clock then could be past an expiry the server's was not.
        now: now.toISOString(),
      };
    }
    case "billing": {
      const invoicePage = query.invoices ?? 1;
      const [user, ledger, orders, documents] = await Promise.all([
        account,
        listLedgerPage(db, userId, query.before),
        listCustomerOrders(db, userId, { page }),
        listCustomerDocuments(db, userId, { page: invoicePage }),
      ]);
      return {
        tab: query.tab,
        cards: cardsOf(user),
        ledger,
        orders: orders.orders,
        page,
        hasMore: orders.hasMore,
        documents: { ...documents, page: invoicePage },
      };
    }
    case "support": {
      const [user, { tickets, hasMore }] = await Promise.all([
        account,
        listCustomerTickets(db, userId, { page }),
      ]);
      return { tab: query.tab, cards: cardsOf(user), tickets, page, hasMore };
    }
    case "account": {
      const [user, sessions, deletion, mail, billing] = await Promise.all([
        account,
        db
          .selectFrom("sessions")
          .select(["id", "created_at", "user_agent", "ip_address", "expires_at"])
          .where("user_id", "=", userId)
          .where("expires_at", ">", now.toISOString())
          .orderBy("created_at", "desc")
          .execute() satisfies Promise<DashboardSession[]>,
        pendingDeletionRequest(db, userId),
        mailPreferencesOf(db, userId),
        getBillingDetails(db, userId),
      ]);
      return {
        tab: query.tab,
        cards: cardsOf(user),
        profile: { name: user.name, email: user.email, pendingEmail: user.pending_email },
        sessions,
        deletion,
        mail,
        billing,
      };
    }
    default:
      return { tab: query.tab, cards: cardsOf(await account) };
  }
}
