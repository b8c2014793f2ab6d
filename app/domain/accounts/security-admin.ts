import { labelKeys } from "~/lib/label-keys";
import { THROTTLE_KINDS } from "./login-throttle";

export type { SecurityActionInput, SecurityQuery } from "./security-admin.schemas";

// /admin/security: the admin's own sessions, failed logins and throttled addresses. Messages are catalogue
// keys ("namespace.key").

export const FAILED_LOGINS_PAGE_SIZE = 25;
/** Form-limit refusals shown (the newest); the table itself holds at most a few thousand. */
export const RATE_LIMIT_REFUSALS_SHOWN = 50;

/** Catalogue keys (admin-security namespace), one family (docs/i18n.md, ADR 26). */
export const THROTTLE_KIND_LABELS = labelKeys("admin-security", "throttles.kinds", THROTTLE_KINDS);

export const SECURITY_INTENTS = ["revoke-session", "revoke-others", "lift-block"] as const;
export type SecurityIntent = (typeof SECURITY_INTENTS)[number];

/** A failed login attempt in /admin/security's list. */
export interface FailedLogin {
  id: number;
  /** Whatever the visitor typed (bounded by the login schema): shown as text, never as markup. */
  email: string;
  address: string;
  at: string;
}
