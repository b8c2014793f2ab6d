import { labelKeys } from "~/lib/label-keys";

export const NOTIFICATION_KINDS = [
  "order_approved",
  "order_rejected",
  "service_suspended",
  "service_reactivated",
  "service_expiring",
  "coins_added",
  "coins_removed",
  "ticket_answered",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** Catalogue keys (tickets namespace), one family (docs/i18n.md, ADR 26). */
export const NOTIFICATION_LABELS = labelKeys("tickets", "notifications", NOTIFICATION_KINDS);
export const EXPIRY_WARNING_DAYS = 3;

export interface Notification {
  id: number;
  kind: NotificationKind;
  params: Record<string, string | number>;
  link: string;
  read: boolean;
  createdAt: string;
}
