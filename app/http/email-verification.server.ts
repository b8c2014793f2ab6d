import type { RequestContext } from "~/context.server";
import { verifiedEmailRequired } from "~/domain/accounts/email-verification";

/**
 * Whether this request's site holds unverified accounts back (docs/accounts.md): the admin's setting,
 * and only while SMTP_URL is set, so a site without mail works as before.
 */
export function emailVerificationRequired(context: RequestContext): boolean {
  return verifiedEmailRequired({
    setting: context.settings.verification.requireVerifiedEmail,
    smtpConfigured: context.services.mailEnabled,
  });
}
