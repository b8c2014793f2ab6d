import type { Db } from "~/db/transaction";
import { loadReferralsPage } from "~/domain/referrals/referrals.server";
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
} from "~/domain/hosting-services/customer-services.server";
import { quoteRenewal } from "~/domain/hosting-services/renewal.server";
import {
  LEDGER_PAGE_SIZE,
  RECENT_REJECTION_DAYS,
  WAITING_ORDERS_LIMIT,
  type DashboardQuery,
  type DashboardTab,
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
    waitReason: order.waitReason,
    createdAt: order.createdAt,
    decidedAt: order.decidedAt,
  }));
}

type InvoicingOption = {
  /** The VAT settings the caller has (the request's cache): what renewing costs. Read when not given. */
  invoicing?: Settings["invoicing"];
};

/**
 * The four cards at the top of every tab (the dashboard's layout), their own only, in one query (on
 * PostgreSQL each query is a round trip); the page reads them beside its tab's own queries.
 */
export async function loadDashboardCards(db: Db, userId: string): Promise<DashboardCards> {
  const user = await db
    .selectFrom("users")
    .select([
      "coin_balance_cents",
      activeServicesCount(db, userId).as("active_services"),
      openTicketsCount(db, userId).as("open_tickets"),
    ])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return {
    activeServices: Number(user.active_services),
    domains: 0,
    openTickets: Number(user.open_tickets),
    accountCreditCents: user.coin_balance_cents,
  };
}

/** The overview tab: recent activity, upcoming renewals and announcements in the customer's `language`. */
export async function loadOverviewTab(db: Db, userId: string, language = "en") {
  const now = new Date();
  /** The overview shows the latest few of each list. */
  const latest = { page: 1, pageSize: 5 };
  const [announcements, services, orders, ledger, tickets] = await Promise.all([
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
  return { announcements, renewals, activity };
}

/**
 * The services tab: a page of services, each with what renewing it costs, the orders waiting to become
 * one, and for `renew` the confirmation of that service's renewal (or why there is none).
 */
export async function loadServicesTab(
  db: Db,
  userId: string,
  query: Partial<Pick<DashboardQuery, "page" | "renew">>,
  options: InvoicingOption = {},
) {
  const now = new Date();
  const page = query.page ?? 1;
  // Every query side by side (one round trip on PostgreSQL), the settings too when not given.
  const [user, { services, hasMore }, waitingOrders, renewal, vatSettings] = await Promise.all([
    // The VAT on their prices: what renewing a service costs them.
    db
      .selectFrom("users")
      .select("billing_country")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow(),
    listCustomerServicePage(db, userId, { page }),
    listWaitingOrders(db, userId, now),
    query.renew
      ? quoteRenewal(db, { userId, serviceId: query.renew, invoicing: options.invoicing }, now)
      : undefined,
    options.invoicing ?? getSettings(db).then((settings) => settings.invoicing),
  ]);
  const vat = customerVat(vatSettings, user.billing_country);
  return {
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

/** The billing tab: a page of coin history (`before`), of orders (`page`) and of documents (`invoices`). */
export async function loadBillingTab(
  db: Db,
  userId: string,
  query: Partial<Pick<DashboardQuery, "page" | "before" | "invoices">>,
) {
  const page = query.page ?? 1;
  const invoicePage = query.invoices ?? 1;
  const [ledger, orders, documents] = await Promise.all([
    listLedgerPage(db, userId, query.before),
    listCustomerOrders(db, userId, { page }),
    listCustomerDocuments(db, userId, { page: invoicePage }),
  ]);
  return {
    ledger,
    orders: orders.orders,
    page,
    hasMore: orders.hasMore,
    documents: { ...documents, page: invoicePage },
  };
}

/** The support tab: a page of the customer's tickets. */
export async function loadSupportTab(
  db: Db,
  userId: string,
  query: Partial<Pick<DashboardQuery, "page">>,
) {
  const page = query.page ?? 1;
  const { tickets, hasMore } = await listCustomerTickets(db, userId, { page });
  return { tickets, page, hasMore };
}

/** The account tab: the profile, the sessions not expired, a pending deletion, mail and billing details. */
export async function loadAccountTab(db: Db, userId: string) {
  const now = new Date();
  const [user, sessions, deletion, mail, billing] = await Promise.all([
    db
      .selectFrom("users")
      // An email change waiting for its link (docs/accounts.md) is shown beside the address.
      .select(["name", "email", "pending_email"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow(),
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
    profile: { name: user.name, email: user.email, pendingEmail: user.pending_email },
    sessions,
    deletion,
    mail,
    billing,
  };
}

/** What each tab reads (the domains tab: nothing yet). */
interface TabData {
  overview: Awaited<ReturnType<typeof loadOverviewTab>>;
  services: Awaited<ReturnType<typeof loadServicesTab>>;
  domains: Record<never, never>;
  billing: Awaited<ReturnType<typeof loadBillingTab>>;
  support: Awaited<ReturnType<typeof loadSupportTab>>;
  account: Awaited<ReturnType<typeof loadAccountTab>>;
  referrals: Awaited<ReturnType<typeof loadReferralsPage>>;
}

/**
 * One tab of /dashboard as a whole: the four cards and the chosen tab's data, read side by side — the
 * customer's own only; announcements in the customer's `language`. The pages read the two apart (the
 * layout's cards, each tab route its own); this is both at once, as scripts and tests read a tab.
 */
export async function loadCustomerDashboard<T extends DashboardTab>(
  db: Db,
  userId: string,
  query: { tab: T } & Partial<Omit<DashboardQuery, "tab">>,
  options: InvoicingOption & {
    /** Announcements in this language. */
    language?: string;
  } = {},
): Promise<{ tab: T; cards: DashboardCards } & TabData[T]> {
  const readers: { [K in DashboardTab]: () => Promise<TabData[K]> } = {
    overview: () => loadOverviewTab(db, userId, options.language),
    services: () => loadServicesTab(db, userId, query, options),
    domains: async () => ({}),
    billing: () => loadBillingTab(db, userId, query),
    support: () => loadSupportTab(db, userId, query),
    account: () => loadAccountTab(db, userId),
    referrals: () => loadReferralsPage(db, userId),
  };
  const [cards, data] = await Promise.all([
    loadDashboardCards(db, userId),
    (readers[query.tab] as () => Promise<TabData[T]>)(),
  ]);
  return { tab: query.tab, cards, ...data };
}
