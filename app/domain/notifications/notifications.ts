import { labelKeys } from "~/lib/label-keys";

export const NOTIFICATION_KINDS = [
  "order_approved",
  "order_rejected",
  "service_suspended",
  "service_reactivated",
  /** Written by the lazy 3-day warning before issue 24; rows of it are still shown. */
  "service_expiring",
  // The service lifecycle (issue 24); "count" is a number of days, "amountCents" coins.
  "service_expiry_reminder",
  "service_auto_renewed",
  "service_renewal_short",
  "service_suspended_expired",
  "service_termination_warning",
  "service_terminated",
  "order_expired",
  "coins_added",
  "coins_removed",
  "ticket_answered",
  // Staff: the background worker's failures (issue 24), each admin's own.
  "automation_job_dead",
  "automation_run_failed",
  "automation_schedule_stale",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** Catalogue keys (tickets namespace), one family (docs/i18n.md, ADR 26). */
export const NOTIFICATION_LABELS = labelKeys("tickets", "notifications", NOTIFICATION_KINDS);

export interface Notification {
  id: number;
  kind: NotificationKind;
  params: Record<string, string | number>;
  link: string;
  read: boolean;
  createdAt: string;
}
