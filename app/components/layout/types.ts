import type { Notification } from "~/domain/notifications/notifications";
import type { PublicSettings } from "~/domain/settings/settings";

/** What the site shell needs to know about the signed-in user; nothing secret. */
export interface ShellUser {
  name: string;
  email: string;
  role: "user" | "admin";
  coinBalanceCents: number;
  notifications?: { unread: number; items: Notification[] };
  /**
   * Coins can be bought here, with a payment method (coin purchase is on and a method is enabled): the
   * coin dialog and every "Add coins" lead to the top-up form; otherwise to the team, off-site.
   */
  topUpOpen: boolean;
}

export interface ShellProps {
  user: ShellUser | null;
  settings: PublicSettings;
  locale: string;
}
