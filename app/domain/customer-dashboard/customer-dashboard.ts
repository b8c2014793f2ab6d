import type { StoredLedgerReason } from "~/domain/coins/ledger-reason";
import type { BillingCycle } from "~/domain/orders/orders";
import type { WaitReason } from "~/domain/orders/order-approval";

export type { DashboardQuery } from "./customer-dashboard.schemas";

export const DASHBOARD_TABS = [
  "overview",
  "services",
  "domains",
  "billing",
  "support",
  "account",
  "referrals",
] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];
export const LEDGER_PAGE_SIZE = 20;
export const LIST_PAGE_SIZE = 20;

/** How long a rejected order stays on the services tab beside the pending ones, with its reason. */
export const RECENT_REJECTION_DAYS = 14;
/** The most orders the services tab lists as waiting (a customer rarely has more than one). */
export const WAITING_ORDERS_LIMIT = 10;

/** An order that has not become a service: waiting for approval, or lately rejected. */
export interface WaitingOrder {
  id: number;
  productName: string;
  serverName: string;
  billingCycle: BillingCycle;
  totalCents: number;
  status: "pending" | "rejected";
  rejectReason: string | null;
  /** Why it was not approved as it was placed (null: placed before the reason was kept). */
  waitReason: WaitReason | null;
  createdAt: string;
  decidedAt: string | null;
}

/** The four cards at the top of every tab. */
export interface DashboardCards {
  activeServices: number;
  domains: number;
  openTickets: number;
  accountCreditCents: number;
}

/** One entry of the customer's coin history; its reason is shown with `ledgerReasonText`. */
export interface CustomerLedgerEntry extends StoredLedgerReason {
  id: number;
  amountCents: number;
  balanceAfterCents: number;
  kind: string;
  createdAt: string;
}

/** One line of the overview's recent activity: a coin movement, an order or a ticket. */
export interface DashboardActivity {
  type: "ledger" | "order" | "ticket";
  at: string;
  /** The ledger kind, the order's status or the ticket's status. */
  kind: string;
  amountCents: number;
  text: string;
  /** A coin movement's reason as a message, shown in the reader's language instead of `text`. */
  reason?: StoredLedgerReason;
}

/** One of the customer's sessions that has not expired (the account tab), as the table stores it. */
export interface DashboardSession {
  id: string;
  created_at: string;
  user_agent: string | null;
  ip_address: string | null;
  expires_at: string;
}

/**
 * A tab's own address: the overview is /dashboard itself, every other tab a route under it. The
 * `?tab=` addresses of older links (stored notifications, mails, bookmarks) are sent here.
 */
export function dashboardTabPath(tab: DashboardTab): string {
  return tab === "overview" ? "/dashboard" : `/dashboard/${tab}`;
}

/** The tab an address of the dashboard shows (`/dashboard/billing` → billing; anything else the overview). */
export function dashboardTabOf(pathname: string): DashboardTab {
  const segment = pathname
    .replace(/^\/dashboard\/?/i, "")
    .split("/")[0]
    ?.toLowerCase();
  return DASHBOARD_TABS.find((tab) => tab !== "overview" && tab === segment) ?? "overview";
}

/**
 * Where an older `?tab=` address of the dashboard now lives: the tab's own address with the rest of the
 * query kept (`?tab=billing&invoices=2` → `/dashboard/billing?invoices=2`); a tab no longer known is the
 * overview, as it always was. Null when the address names no tab.
 */
export function tabQueryAddress(search: URLSearchParams): string | null {
  const named = search.get("tab");
  if (named === null) return null;
  const tab = DASHBOARD_TABS.find((known) => known === named) ?? "overview";
  const rest = new URLSearchParams(search);
  rest.delete("tab");
  const query = rest.toString();
  return `${dashboardTabPath(tab)}${query ? `?${query}` : ""}`;
}
