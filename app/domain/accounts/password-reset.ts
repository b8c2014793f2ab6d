import { LOGIN_EMAIL_WINDOW_MINUTES, LOGIN_PAIR_FAILURE_LIMIT } from "./accounts";

// Password reset by mail (docs/mail.md#password-reset, ADR 0034): the rules, pure. The flow
// itself is better-auth's (its token, its expiry, its single use); password-reset.server.ts calls it.

/** A reset link works for one hour, once. */
export const PASSWORD_RESET_LINK_SECONDS = 60 * 60;

/**
 * Reset mails one account gets at most in a window: the login throttle's numbers for one email (5 in
 * 15 minutes). Requests past it get the same answer and no mail, so the limit says nothing about whether
 * the account exists, and nobody can fill someone's mailbox from the form.
 */
export const RESET_MAILS_PER_EMAIL = LOGIN_PAIR_FAILURE_LIMIT;
export const RESET_EMAIL_WINDOW_MINUTES = LOGIN_EMAIL_WINDOW_MINUTES;

/**
 * A request is answered no sooner than this after it arrived, whatever it did: asking for an unknown
 * address does less work than queueing a mail, and the difference must not tell an account apart.
 */
export const RESET_REQUEST_MIN_MS = 400;

/** better-auth's tokens are 24 letters and digits; anything else is no link of ours. */
export const RESET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

export function isResetToken(value: unknown): value is string {
  return typeof value === "string" && RESET_TOKEN_PATTERN.test(value);
}

/** Our page a reset mail links to (better-auth's own link leads to its handler, which is not mounted). */
export function resetLinkPath(token: string): string {
  return `/reset-password?token=${encodeURIComponent(token)}`;
}
