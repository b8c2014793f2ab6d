// Verified addresses (docs/accounts.md), the rules a page may know too: how long a link lasts,
// where it leads, and when an unverified account is held back. The database side is
// email-verification.server.ts.

/** How long a verification link (a new account's, or an email change's) can be used. */
export const EMAIL_VERIFICATION_HOURS = 24;

/** Our page that a verification link leads to: better-auth's own handler is not mounted (ADR 5). */
export const VERIFY_EMAIL_PATH = "/verify-email";

/** The link of a message: PUBLIC_URL (without a trailing slash), our page, the token. */
export function verificationLink(baseUrl: string, token: string): string {
  return `${baseUrl}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
}

/** "Send the message again" from one address, in any minute (the form rate windows, migration 0017). */
export const VERIFY_RESEND_PER_ADDRESS = 5;
/** ... and for one account, from any address: a verification message every 20 seconds at most. */
export const VERIFY_RESEND_PER_ACCOUNT = 3;

/**
 * Whether an unverified account is held back from ordering, opening a ticket and asking for coins: the
 * admin's setting (on by default), and only while mail can reach anyone. Without SMTP_URL no link could
 * ever arrive, so a fresh install works as before.
 */
export function verifiedEmailRequired(input: {
  setting: boolean;
  smtpConfigured: boolean;
}): boolean {
  return input.setting && input.smtpConfigured;
}

/** What the verification page shows for a link (auth namespace, `verify.*`). */
export type VerifyEmailOutcome =
  /** The account's address is verified now. */
  | "verified"
  /** It already was: the link was used before. */
  | "alreadyVerified"
  /** An email change took effect: the new address is the login. */
  | "changed"
  /** Too old: a new one can be asked for. */
  | "expired"
  /** Not a link we made, or one replaced by a newer request, or its change already made. */
  | "invalid"
  /** An email change whose new address another account took meanwhile. */
  | "emailTaken";

/** Message keys of the page, written out so the catalogue test sees each one. */
export const VERIFY_OUTCOME_TEXTS = {
  verified: { title: "verify.verifiedTitle", body: "verify.verifiedBody" },
  alreadyVerified: { title: "verify.alreadyTitle", body: "verify.alreadyBody" },
  changed: { title: "verify.changedTitle", body: "verify.changedBody" },
  expired: { title: "verify.expiredTitle", body: "verify.expiredBody" },
  invalid: { title: "verify.invalidTitle", body: "verify.invalidBody" },
  emailTaken: { title: "verify.takenTitle", body: "verify.takenBody" },
} as const satisfies Record<VerifyEmailOutcome, { title: string; body: string }>;
