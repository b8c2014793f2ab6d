import { labelKeys } from "~/lib/label-keys";
import { pageParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { MAX_EMAIL_LENGTH } from "./accounts";
import { MAX_ADDRESS_LENGTH, THROTTLE_KINDS } from "./login-throttle";

// /admin/security: the admin's own sessions, failed logins and throttled addresses. Messages are catalogue
// keys ("namespace.key").

export const FAILED_LOGINS_PAGE_SIZE = 25;
/** Form-limit refusals shown (the newest); the table itself holds at most a few thousand. */
export const RATE_LIMIT_REFUSALS_SHOWN = 50;

/** The page's query string: anything unexpected is ignored rather than failing. */
export const securityQuerySchema = z.object({
  email: z.string().trim().max(MAX_EMAIL_LENGTH).optional().catch(undefined),
  address: z.string().trim().max(MAX_ADDRESS_LENGTH).optional().catch(undefined),
  page: pageParam,
});
export type SecurityQuery = z.infer<typeof securityQuerySchema>;

/** Catalogue keys (admin-security namespace), one family (docs/i18n.md, ADR 26). */
export const THROTTLE_KIND_LABELS = labelKeys("admin-security", "throttles.kinds", THROTTLE_KINDS);

export const SECURITY_INTENTS = ["revoke-session", "revoke-others", "lift-block"] as const;
export type SecurityIntent = (typeof SECURITY_INTENTS)[number];

export const securityActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("revoke-session"),
      sessionId: z
        .string({ error: "admin-security.errors.sessionNotFound" })
        .trim()
        .min(1, "admin-security.errors.sessionNotFound")
        .max(100, "admin-security.errors.sessionNotFound"),
    }),
    z.object({ intent: z.literal("revoke-others") }),
    z.object({
      intent: z.literal("lift-block"),
      kind: z.enum(THROTTLE_KINDS, { error: "admin-security.errors.notBlocked" }),
      // The address, email or pair exactly as listed (it is compared, never parsed).
      key: z
        .string({ error: "admin-security.errors.notBlocked" })
        .min(1, "admin-security.errors.notBlocked")
        .max(MAX_EMAIL_LENGTH + 1 + MAX_ADDRESS_LENGTH, "admin-security.errors.notBlocked"),
    }),
  ],
  { error: "admin-security.errors.unknownAction" },
);
export type SecurityActionInput = z.infer<typeof securityActionSchema>;

/** A failed login attempt in /admin/security's list. */
export interface FailedLogin {
  id: number;
  /** Whatever the visitor typed (bounded by the login schema): shown as text, never as markup. */
  email: string;
  address: string;
  at: string;
}
