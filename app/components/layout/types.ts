import type { NotificationKind } from "~/domain/notifications/notifications";
import type { PublicSettings } from "~/domain/settings/settings";

/** What the site shell needs to know about the signed-in user; nothing secret. */
export interface ShellUser {
  name: string;
  email: string;
  role: "user" | "admin";
  coinBalanceCents: number;
  notifications?: { unread: number; items: ShellNotification[] };
}

export interface ShellNotification {
  id: number;
  kind: NotificationKind;
  params: Record<string, string | number>;
  link: string;
  read: boolean;
  /** When it was written (ISO 8601), shown in the reader's language. */
  createdAt: string;
}

export interface ShellProps {
  user: ShellUser | null;
  settings: PublicSettings;
  locale: string;
}
