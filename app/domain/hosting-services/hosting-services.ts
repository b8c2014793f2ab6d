import { EURO_INPUT_REFUSALS, type EuroInputError } from "~/lib/euro-input";
import { labelKeys, messageKeys } from "~/lib/label-keys";
import { SORT_DIRECTIONS } from "~/lib/sort-directions";
import { cycleEnd, type BillingCycle } from "~/domain/orders/orders";
import type { ServicePanel } from "~/domain/provisioning/panel-plan";
import { documentAmounts, type DocumentAmounts, type VatTerms } from "~/domain/invoices/invoices";

export type { EditServiceInput, ServiceListQuery } from "./hosting-services.schemas";

export const SERVICE_STATUSES = ["active", "suspended", "terminated"] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
export const RENEWAL_WINDOW_DAYS = 14;

export const SERVICE_ACTIONS = ["suspend", "reactivate", "terminate"] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

/** Spec section 4: active ↔ suspended; terminated is final. */
export const TRANSITIONS: Record<ServiceAction, { from: ServiceStatus[]; to: ServiceStatus }> = {
  suspend: { from: ["active"], to: "suspended" },
  reactivate: { from: ["suspended"], to: "active" },
  terminate: { from: ["active", "suspended"], to: "terminated" },
};

export function canTransition(status: ServiceStatus, action: ServiceAction): boolean {
  return TRANSITIONS[action].from.includes(status);
}

/** What a customer sees: an active service past its expiry shows as expired, one near it as expiring soon. */
export const DISPLAY_STATUSES = [...SERVICE_STATUSES, "expired", "expiring"] as const;
export type DisplayStatus = (typeof DISPLAY_STATUSES)[number];

// Catalogue keys (services namespace), one family a set of values (docs/i18n.md, ADR 26).
export const SERVICE_STATUS_LABELS = labelKeys("services", "status", DISPLAY_STATUSES);
export const SERVICE_ACTION_LABELS = labelKeys("services", "admin", SERVICE_ACTIONS);

/** Whether a service's expiry has come, whatever its status: its list then says "Expired", not "Expires". */
export function expiryPassed(expiresAt: string, now = new Date()): boolean {
  return Date.parse(expiresAt) <= now.getTime();
}

export function displayStatus(
  status: ServiceStatus,
  expiresAt: string,
  now = new Date(),
): DisplayStatus {
  if (status !== "active") return status;
  if (expiryPassed(expiresAt, now)) return "expired";
  if (Date.parse(expiresAt) - now.getTime() <= 3 * 86_400_000) return "expiring";
  return "active";
}

/** Badge colours of spec section 4: active green, suspended yellow, expired or expiring red, pending blue. */
export function badgeTone(status: string): "green" | "yellow" | "red" | "blue" | "grey" {
  switch (status) {
    case "active":
    case "approved":
      return "green";
    case "suspended":
      return "yellow";
    case "expired":
    case "expiring":
    case "rejected":
      return "red";
    case "pending":
      return "blue";
    default:
      return "grey";
  }
}

/**
 * Why a suspended service is suspended (migration 0028): "expired" when the lifecycle suspended it after
 * its grace period, "admin" when an admin did; null for one suspended before 0028, read as an admin's.
 */
export type SuspensionReason = "expired" | "admin";

export function suspensionReasonOf(value: string | null): SuspensionReason | null {
  return value === "expired" || value === "admin" ? value : null;
}

/**
 * A customer may renew an active (or expired) service, and one the lifecycle suspended for its expiry
 * (the renewal reactivates it); one an admin suspended, and a terminated one, go through support.
 */
export function canRenew(
  status: ServiceStatus,
  suspensionReason: SuspensionReason | null = null,
): boolean {
  return status === "active" || (status === "suspended" && suspensionReason === "expired");
}

/** The customer's services tab; with a service, the confirmation of its renewal (nothing is charged yet). */
export function servicesTabPath(renew?: number): string {
  return renew ? `/dashboard/services?renew=${renew}#renewal` : "/dashboard/services";
}

/**
 * The expiry a renewal gives: one cycle (`cycleEnd`, calendar months) from the current expiry, or from now
 * when the service has already expired. The months are added to the expiry as it is stored: a term that
 * was cut to the end of a short month stays on that day (31 Jan → 28 Feb → 28 Mar), so each renewal lasts
 * exactly its months and the date never moves back by itself. What the renew confirmation shows.
 */
export function renewalExpiry(expiresAt: string, cycle: BillingCycle, now: Date): string {
  return cycleEnd(new Date(renewalTermStart(expiresAt, now)), cycle);
}

/**
 * Where the term a renewal pays for starts (what renewalExpiry adds a cycle to, and the period its
 * invoice names): the current expiry, as stored, or now when the service has already expired. A
 * monthly renewal of a server that expired ten days ago bills the month from today, not forty days.
 */
export function renewalTermStart(expiresAt: string, now: Date): string {
  return Date.parse(expiresAt) >= now.getTime() ? expiresAt : now.toISOString();
}

export const SERVICE_SORTS = ["created", "expires", "price", "customer"] as const;
export type ServiceSort = (typeof SERVICE_SORTS)[number];
export const SERVICE_SORT_LABELS = labelKeys("services", "admin.sorts", SERVICE_SORTS);
export const SERVICE_DIRECTION_LABELS = labelKeys("services", "admin.directions", SORT_DIRECTIONS);
/** "Expiring within N days": the choices of the filter, in days. */
export const EXPIRING_WITHIN = ["7", "30"] as const;
export type ExpiringWithin = (typeof EXPIRING_WITHIN)[number];
export const EXPIRING_WITHIN_LABELS = labelKeys("services", "admin.within", EXPIRING_WITHIN);

/** The most one cycle of a service may cost: €100,000 (far above any plan; catches an extra digit). */
export const MAX_SERVICE_PRICE_CENTS = 10_000_000;
export const MAX_ADMIN_NOTE_LENGTH = 2_000;

/** Why a typed price was refused: the refusals of every admin euro field, worded for a service. */
export const PRICE_ERRORS = messageKeys(
  "services",
  "errors.price",
  EURO_INPUT_REFUSALS,
) satisfies Record<EuroInputError, string>;

/** A calendar date typed as YYYY-MM-DD (an `<input type="date">`), between 2000 and 2100, or null. */
export function parseExpiryDate(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  if (year < 2000 || year > 2100) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  // 2026-02-30 rolls over to March: not a date.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return text.trim();
}

/**
 * The new expiry of a service when an admin sets its date: that day at the time of day it expires now,
 * so an unchanged date leaves the expiry exactly as it was.
 */
export function expiryOnDate(currentExpiry: string, date: string): string {
  const current = new Date(currentExpiry);
  if (current.toISOString().slice(0, 10) === date) return current.toISOString();
  return `${date}${current.toISOString().slice(10)}`;
}

/**
 * The one price of renewing a service for one cycle: its cycle price, with the VAT added when prices
 * exclude it. The confirmation, the cards, the lifecycle's plan, preview and mails, and the charge all
 * read it, so that what a customer is shown is what they pay.
 */
export function renewalAmounts(cyclePriceCents: number, vat: VatTerms): DocumentAmounts {
  return documentAmounts(cyclePriceCents, vat.rateBp, vat.pricesIncludeVat);
}

/** What a customer is asked to confirm before a renewal charges them. */
export interface RenewalQuote {
  serviceId: number;
  name: string;
  serverName: string;
  billingCycle: BillingCycle;
  /** What the renewal charges, in cents (`renewalAmounts`' total): the cycle price, VAT added if due. */
  priceCents: number;
  /** Its figures: the cycle price, the VAT and the total. */
  amounts: DocumentAmounts;
  currentExpiresAt: string;
  /** Whether that expiry has passed: the confirmation then says when it expired, not when it expires. */
  expired: boolean;
  newExpiresAt: string;
  balanceCents: number;
  /** The balance once charged; null when it is short (a balance never goes below zero). */
  balanceAfterCents: number | null;
  /** How much the balance lacks, in cents; 0 when it covers the price. */
  missingCents: number;
  /** The service is set to end at its expiry: renewing it withdraws that (the page says so). */
  endsAtTerm: boolean;
}

/** The confirmation of one renewal, from the service as it is now, the customer's balance and VAT. */
export function renewalQuote(
  service: Pick<
    HostingService,
    "id" | "name" | "serverName" | "billingCycle" | "cyclePriceCents" | "expiresAt"
  >,
  balanceCents: number,
  now: Date,
  vat: VatTerms,
  endsAtTerm = false,
): RenewalQuote {
  const amounts = renewalAmounts(service.cyclePriceCents, vat);
  const priceCents = amounts.totalCents;
  const missingCents = Math.max(0, priceCents - balanceCents);
  return {
    serviceId: service.id,
    name: service.name,
    serverName: service.serverName,
    billingCycle: service.billingCycle,
    priceCents,
    amounts,
    currentExpiresAt: service.expiresAt,
    expired: expiryPassed(service.expiresAt, now),
    newExpiresAt: renewalExpiry(service.expiresAt, service.billingCycle, now),
    balanceCents,
    balanceAfterCents: missingCents > 0 ? null : balanceCents - priceCents,
    missingCents,
    endsAtTerm,
  };
}

/**
 * How a notice or a mail names a service: its plan and, as the dashboard's list shows it, the server's own
 * name, so that a customer with two servers of one plan knows which one is meant. A service without a
 * server name (one from before it had one) is named by its plan alone.
 */
export function serviceLabel({ name, serverName }: Pick<HostingService, "name" | "serverName">) {
  const server = serverName.trim();
  return server ? `${name} (${server})` : name;
}

export interface HostingService {
  id: number;
  userId: string;
  productId: number | null;
  name: string;
  serverName: string;
  type: string | null;
  billingCycle: BillingCycle;
  monthlyPriceCents: number;
  cyclePriceCents: number;
  status: ServiceStatus;
  expiresAt: string;
  createdAt: string;
  /** The customer's automatic renewal from coins. */
  autoRenew: boolean;
  /** Set while suspended (null for a suspension made before migration 0028). */
  suspensionReason: SuspensionReason | null;
  /** Where it stands on the game panel; null for a service set up by hand. */
  panel: ServicePanel | null;
}

/** A service in the admin list, with whose it is. */
export interface AdminServiceView extends HostingService {
  userEmail: string;
  userName: string;
  /** An admin's note: admins only, never in what a customer's page receives. */
  adminNote: string | null;
}
