import { readCookie } from "~/lib/cookies";
import {
  normalizeReferralCode,
  REFERRAL_COOKIE,
  REFERRAL_COOKIE_MAX_AGE_SECONDS,
} from "~/domain/referrals/referrals";

// The referral code a link carried (`/?ref=CODE`, docs/referrals.md), kept from the visit to the
// registration in a first-party cookie for 30 days. HttpOnly: no script of ours reads it; SameSite=Lax:
// it goes with the visitor's own navigations, not with other sites' requests.
const ATTRIBUTES = "Path=/; HttpOnly; SameSite=Lax";

/** The Set-Cookie value that keeps `code` for 30 days. */
export function referralCookie(code: string): string {
  return `${REFERRAL_COOKIE}=${encodeURIComponent(code)}; ${ATTRIBUTES}; Max-Age=${REFERRAL_COOKIE_MAX_AGE_SECONDS}`;
}

/** The Set-Cookie value that forgets it, once the registration recorded it. */
export const CLEAR_REFERRAL_COOKIE = `${REFERRAL_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;

/** The code the cookie keeps, or null (none, or not a code). */
export function readReferralCode(cookieHeader: string | null): string | null {
  return normalizeReferralCode(readCookie(cookieHeader, REFERRAL_COOKIE));
}
