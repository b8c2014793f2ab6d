import { keysOf } from "~/lib/keys-of";
/** Catalogue keys (tickets namespace) written out, so the catalogue test sees every one in use. */
export const NOTIFICATION_LABELS = {
  order_approved: "notifications.order_approved",
  order_rejected: "notifications.order_rejected",
  service_suspended: "notifications.service_suspended",
  service_reactivated: "notifications.service_reactivated",
  /** Written by the lazy 3-day warning before issue 24; rows of it are still shown. */
  service_expiring: "notifications.service_expiring",
  // The service lifecycle (issue 24); "count" is a number of days, "amountCents" coins.
  service_expiry_reminder: "notifications.service_expiry_reminder",
  service_auto_renewed: "notifications.service_auto_renewed",
  service_renewal_short: "notifications.service_renewal_short",
  service_suspended_expired: "notifications.service_suspended_expired",
  service_termination_warning: "notifications.service_termination_warning",
  service_terminated: "notifications.service_terminated",
  order_expired: "notifications.order_expired",
  coins_added: "notifications.coins_added",
  coins_removed: "notifications.coins_removed",
  ticket_answered: "notifications.ticket_answered",
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_LABELS;
export const NOTIFICATION_KINDS = keysOf(NOTIFICATION_LABELS);

export interface Notification {
  id: number;
  kind: NotificationKind;
  params: Record<string, string | number>;
  link: string;
  read: boolean;
  createdAt: string;
}
