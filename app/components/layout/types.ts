import type { Notification } from "~/domain/notifications/notifications";
import type { PublicSettings } from "~/domain/settings/settings";

/** What the site shell needs to know about the signed-in user; nothing secret. */
export interface ShellUser {
  name: string;
  email: string;
  role: "user" | "admin";
  coinBalanceCents: number;
  notifications?: { unread: number; items: Notification[] };
}

export interface ShellProps {
  user: ShellUser | null;
  settings: PublicSettings;
  locale: string;
}
