import { labelKeys } from "~/lib/label-keys";

// A customer's cancellation of a service (docs/self-service.md, ADR 59), pure: the two ways to cancel,
// the reasons asked, the states of a request, the refund's 14-day window and its amount. The use-cases
// are cancellation.server.ts (the customer's) and refund-decision.server.ts (the decision).

/** At the end of the term (the service runs to its expiry), or a refund within the window. */
export const CANCELLATION_KINDS = ["end_of_term", "refund"] as const;
export type CancellationKind = (typeof CANCELLATION_KINDS)[number];

/** Why a customer cancels: a fixed list (a CHECK in migration 0054), counted in the reports. */
export const CANCELLATION_REASONS = [
  "tooExpensive",
  "notUsing",
  "switchingHost",
  "technicalProblems",
  "other",
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];
/** Catalogue keys (services namespace), one family. */
export const CANCELLATION_REASON_LABELS = labelKeys(
  "services",
  "cancel.reasons",
  CANCELLATION_REASONS,
);

/** An end of term: scheduled until the expiry, then done, unless the customer keeps the server. */
export const END_OF_TERM_STATES = ["scheduled", "withdrawn", "done"] as const;
/** A refund: requested until decided, unless the customer withdraws it first. */
export const REFUND_STATES = ["requested", "withdrawn", "approved", "refused"] as const;
export const CANCELLATION_STATES = [
  "scheduled",
  "requested",
  "withdrawn",
  "done",
  "approved",
  "refused",
] as const;
export type CancellationState = (typeof CANCELLATION_STATES)[number];
export const CANCELLATION_STATE_LABELS = labelKeys(
  "services",
  "cancel.states",
  CANCELLATION_STATES,
);
/** The states of a request still open: a service has at most one (a partial unique index). */
export const OPEN_STATES = ["scheduled", "requested"] as const satisfies CancellationState[];

export function isOpen(state: string): boolean {
  return (OPEN_STATES as readonly string[]).includes(state);
}

/** The longest text a customer adds to their reason, and an admin to a refusal. */
export const REASON_TEXT_MAX = 500;

/** The service terms' promise: a full refund within this many days of the order. */
export const REFUND_WINDOW_DAYS = 14;
const DAY_MS = 86_400_000;

/** The last moment a refund may be asked for an order placed at `orderedAt`: exactly 14 × 24 h later. */
export function refundWindowEnd(orderedAt: string): string {
  return new Date(Date.parse(orderedAt) + REFUND_WINDOW_DAYS * DAY_MS).toISOString();
}

/** Whether `now` is within the window: the last moment is in, a millisecond later is out. */
export function withinRefundWindow(orderedAt: string, now: Date): boolean {
  return now.getTime() <= Date.parse(refundWindowEnd(orderedAt));
}

/** A paid invoice of a service, with what credit notes pointing at it have credited already. */
export interface PaidPart {
  totalCents: number;
  /** The sum of the credit notes of it, as a positive number (a downgrade credits part of a term). */
  creditedCents: number;
}

/** What is left to give back of one invoice: never negative. */
export function remainingCents(part: PaidPart): number {
  return Math.max(0, part.totalCents - part.creditedCents);
}

/** What a refund gives back: everything paid for the service and not already given back. */
export function refundableCents(parts: readonly PaidPart[]): number {
  return parts.reduce((sum, part) => sum + remainingCents(part), 0);
}

/**
 * Whether the system decides a refund by itself: at most the admin's ceiling in coins (the settings'
 * `selfService.autoRefundMaxCoins`); a ceiling of 0 leaves every request to the staff.
 */
export function decidedBySystem(amountCents: number, autoRefundMaxCoins: number): boolean {
  return autoRefundMaxCoins > 0 && amountCents <= autoRefundMaxCoins * 100;
}

/** Where a customer cancels a service of theirs. */
export function serviceCancelPath(serviceId: number): string {
  return `/dashboard/services/${serviceId}/cancel`;
}

/** What the services tab says of a service with an open request. */
export const CANCELLATION_BADGES = ["endsAtExpiry", "refundRequested"] as const;
export type CancellationBadge = (typeof CANCELLATION_BADGES)[number];
export const CANCELLATION_BADGE_LABELS = labelKeys(
  "services",
  "cancel.badges",
  CANCELLATION_BADGES,
);

export function cancellationBadge(state: string): CancellationBadge | null {
  if (state === "scheduled") return "endsAtExpiry";
  if (state === "requested") return "refundRequested";
  return null;
}

/** A request as the customer's page and the admins' queue show it. */
export interface CancellationSummary {
  id: number;
  kind: CancellationKind;
  state: CancellationState;
  reason: CancellationReason;
  reasonText: string | null;
  refundCents: number;
  /** An end of term: the expiry the service runs to. */
  endsAt: string | null;
  decidedAt: string | null;
  /** Decided by the system (a refund under the ceiling). */
  decidedBySystem: boolean;
  decisionReason: string | null;
  creditNotes: string[];
  createdAt: string;
}

/** Why a service offers no refund. */
export type NoRefund = "noOrder" | "windowPassed";

/** The customer's cancel page. */
export interface CancelPageView {
  service: {
    id: number;
    name: string;
    serverName: string;
    status: string;
    expiresAt: string;
    autoRenew: boolean;
  };
  /** The open request, else the latest one (what became of it). */
  current: CancellationSummary | null;
  /** A new request may be made: the service is active and none is open. */
  canCancel: boolean;
  /** The refund: until when and how much, or why there is none. */
  refund: { offered: true; until: string; amountCents: number } | { offered: false; why: NoRefund };
  /** The loader's moment, so the page reads the dates against the server's clock. */
  now: string;
}

/** One request of the admins' queue (/admin/refunds). */
export interface RefundRequestRow extends CancellationSummary {
  serviceId: number;
  serviceName: string;
  serverName: string;
  serviceStatus: string;
  userId: string;
  userName: string;
  userEmail: string;
  orderedAt: string | null;
  decidedByName: string | null;
}

/** The admins' queue's filter: the requests waiting, or those decided. */
export const REFUND_FILTERS = ["requested", "approved", "refused", "withdrawn"] as const;
export type RefundFilter = (typeof REFUND_FILTERS)[number];

/** The reports' table: each reason's requests of the period, by kind. */
export interface CancellationReasonCount {
  reason: CancellationReason;
  endOfTerm: number;
  refund: number;
}

/** Every reason, in the list's order, with its counts (0 for a reason no one gave). */
export function reasonCounts(
  rows: readonly { reason: string; kind: string; count: number }[],
): CancellationReasonCount[] {
  return CANCELLATION_REASONS.map((reason) => {
    const of = (kind: CancellationKind) =>
      rows
        .filter((row) => row.reason === reason && row.kind === kind)
        .reduce((sum, row) => sum + row.count, 0);
    return { reason, endOfTerm: of("end_of_term"), refund: of("refund") };
  });
}
