import { keysOf } from "~/lib/keys-of";
/** Catalogue keys (tickets namespace) written out, so the catalogue test sees every one in use. */
export const NOTIFICATION_LABELS = {
  order_approved: "notifications.order_approved",
  order_rejected: "notifications.order_rejected",
  service_suspended: "notifications.service_suspended",
  service_reactivated: "notifications.service_reactivated",
  service_expiring: "notifications.service_expiring",
  coins_added: "notifications.coins_added",
  coins_removed: "notifications.coins_removed",
  ticket_answered: "notifications.ticket_answered",
  // Staff: the background worker's failures (issue 24), each admin's own.
  automation_job_dead: "notifications.automation_job_dead",
  automation_run_failed: "notifications.automation_run_failed",
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_LABELS;
export const NOTIFICATION_KINDS = keysOf(NOTIFICATION_LABELS);
export const EXPIRY_WARNING_DAYS = 3;

export interface Notification {
  id: number;
  kind: NotificationKind;
  params: Record<string, string | number>;
  link: string;
  read: boolean;
  createdAt: string;
}
