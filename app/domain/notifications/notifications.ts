import { mediumDateTime } from "~/lib/intl-format";
import { labelKeys } from "~/lib/label-keys";
import { formatCoins, formatEuros } from "~/lib/money";

/** What only admins are told (`notifyStaff`): a customer's list never shows them. */
export const STAFF_NOTIFICATION_KINDS = [
  // The background worker's failures, each admin's own.
  "automation_job_dead",
  "automation_run_failed",
  "automation_schedule_stale",
  // A new order waits for approval, a customer opened a ticket ("amountCents" coins).
  "order_waiting",
  "ticket_opened",
  // A new order the system approved as it was placed: its plan activates when paid ("amountCents" coins).
  "order_auto_approved",
  // A customer says a top-up is paid ("reference", "method", "amountCents" coins).
  "top_up_paid",
  // Online payments: a notification or a payment refused, the provider's refusal of our call, a
  // payment credited after we had closed it, a refund to make in the provider's dashboard or refused
  // there ("provider", "reference", "detail"; "amountCents" coins), a refund recorded (the second when
  // part of the coins could not be taken back: "amountCents" is that part).
  "online_payment_bad_signature",
  "online_payment_unknown",
  "online_payment_mismatch",
  "online_payment_provider_error",
  "online_payment_request_closed",
  "online_payment_late_credit",
  "online_refund_manual",
  "online_refund_refused",
  "top_up_refund_recorded",
  "top_up_refund_short",
  // A customer asked for a refund within 14 days of an order, waiting for a decision; one approved by
  // an admin, or by the system under the ceiling ("service", "amountCents" coins, the request's "id").
  "refund_requested",
  "refund_approved",
  "refund_auto_approved",
] as const;

export const NOTIFICATION_KINDS = [
  "order_approved",
  "order_rejected",
  "service_suspended",
  "service_reactivated",
  // A provisioned server finished installing on the game panel.
  "service_ready",
  // A server whose customer asked for it has been offline for "count" minutes (once a spell).
  "server_offline",
  /** Written by the lazy 3-day warning the service lifecycle replaced; rows of it are still shown. */
  "service_expiring",
  // The service lifecycle; "count" is a number of days, "amountCents" coins.
  "service_expiry_reminder",
  "service_auto_renewed",
  "service_renewal_short",
  "service_suspended_expired",
  "service_termination_warning",
  "service_terminated",
  "order_expired",
  "coins_added",
  "coins_removed",
  // An admin refunded an invoice: its number, the credit note's, "amountCents" coins.
  "invoice_refunded",
  // ...and took back the term a renewal's invoice paid for: the service and its new expiry "expires";
  // the second with its automatic renewal switched off too, the third when the renewal had reactivated
  // the service, now suspended again, the fourth both.
  "service_renewal_refunded",
  "service_renewal_refunded_auto_off",
  "service_renewal_refunded_suspended",
  "service_renewal_refunded_suspended_auto_off",
  // A customer moved a service to another plan ("plan"): "amountCents" coins charged, or credited.
  "service_plan_upgraded",
  "service_plan_downgraded",
  "ticket_answered",
  // A top-up request decided: "reference", "amountCents" coins, a rejection's "reason".
  "top_up_approved",
  "top_up_rejected",
  // Money of a top-up given back by its provider: "reference", "amountCents" the coins taken back.
  "top_up_refunded",
  // The archive of their data a customer asked for is ready: its link works until "expires".
  "data_export_ready",
  // A referral's reward paid to its referrer: "amountCents" coins (docs/referrals.md).
  "referral_reward_paid",
  // A customer's cancellation: a refund approved ("amountCents" coins back, the service ended), one
  // refused (the admin's "reason"), and a service ended at the end of its term as they asked.
  "service_refunded",
  "service_refund_refused",
  "service_ended_at_term",
  ...STAFF_NOTIFICATION_KINDS,
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** Catalogue keys (tickets namespace), one family (docs/i18n.md, ADR 26). */
export const NOTIFICATION_LABELS = labelKeys("notifications", "kinds", NOTIFICATION_KINDS);

/** How many of their newest notifications the bell lists; /admin/notifications has them all. */
export const BELL_LIMIT = 10;
/** How many a page of /admin/notifications holds. */
export const NOTIFICATIONS_PAGE_SIZE = 25;

export const NOTIFICATION_FILTERS = ["all", "unread"] as const;
export type NotificationFilter = (typeof NOTIFICATION_FILTERS)[number];
/** Catalogue keys (admin namespace) of the page's filter. */
export const NOTIFICATION_FILTER_LABELS = labelKeys(
  "admin",
  "notifications.filters",
  NOTIFICATION_FILTERS,
);

/** Values stored as a moment (ISO 8601), shown as a date and time in the reader's language. */
const MOMENT_PARAMS = ["due", "expires"] as const;

/**
 * A notification's stored values as its text shows them, in the reader's language: coins from
 * `amountCents` (as `amount`, and in euros as `euros`), moments (a stale schedule's `due`, a service's
 * `expires`) as a date and time in the site's time zone (the same on the server and in the browser, so
 * hydration changes nothing). Others as stored.
 */
export function notificationValues(
  params: Record<string, string | number>,
  { locale, timeZone }: { locale: string; timeZone: string },
): Record<string, string | number> {
  const values: Record<string, string | number> = { ...params };
  if (typeof params.amountCents === "number") {
    values.amount = formatCoins(params.amountCents, locale);
    // A document's total reads in euros (a refund may have gone back outside the site, not as coins).
    values.euros = formatEuros(params.amountCents, locale);
  }
  for (const name of MOMENT_PARAMS) {
    const raw = params[name];
    if (typeof raw !== "string") continue;
    const at = new Date(raw);
    if (!Number.isNaN(at.getTime())) values[name] = mediumDateTime(locale, { timeZone }).format(at);
  }
  return values;
}

export interface Notification {
  id: number;
  kind: NotificationKind;
  params: Record<string, string | number>;
  link: string;
  read: boolean;
  /** When it was written (ISO 8601), shown in the reader's language. */
  createdAt: string;
}

export type { NotificationListQuery } from "./notifications.schemas";
