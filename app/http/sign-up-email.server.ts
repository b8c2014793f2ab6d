import { z } from "~/lib/zod";
import { readCookie } from "~/lib/cookies";

// The address just registered, for the sign-in form that registration leads to: kept in a cookie (not
// in the page's address, where it would stay in the history and in logs) for ten minutes, or until the
// next sign-in. Its path is the site's: a hydrated page loads the sign-in page's data from
// /login.data, which a cookie of path /login would not reach.
const SIGN_UP_EMAIL_COOKIE = "hostfront_sign_up_email";
const ATTRIBUTES = "Path=/; HttpOnly; SameSite=Lax";

/** A Set-Cookie value that fills `email` in on the sign-in form. */
export function signUpEmailCookie(email: string): string {
  return `${SIGN_UP_EMAIL_COOKIE}=${encodeURIComponent(email)}; ${ATTRIBUTES}; Max-Age=600`;
}

/** The Set-Cookie value that forgets it, once the account has signed in. */
export const CLEAR_SIGN_UP_EMAIL = `${SIGN_UP_EMAIL_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;

const emailSchema = z.email().max(254);

/** The address registration left for the sign-in form, or null (none, or not an address). */
export function readSignUpEmail(cookieHeader: string | null): string | null {
  const parsed = emailSchema.safeParse(readCookie(cookieHeader, SIGN_UP_EMAIL_COOKIE));
  return parsed.success ? parsed.data : null;
}
