// Spec section 9 and the foundation issue.
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;
/** The longest redirect target followed (safeRedirect); the forms that carry one cap it the same. */
export const MAX_REDIRECT_LENGTH = 2000;
export const USER_SESSION_DAYS = 30;
export const ADMIN_SESSION_HOURS = 12;
/** A session's "last active" moves forward at most this often (own-sessions.server.ts). */
export const SESSION_ACTIVITY_STEP_MINUTES = 5;
export const SEED_ADMIN_COINS = 10000;

// The login throttle (login-throttle.ts, docs/security.md). Failures of one email count per address (the
// pair), so nobody can lock an account out from elsewhere; the ceiling bounds the guesses an attacker
// spread over many addresses gets; an address that signed in to the account lately is never refused for it.
export const LOGIN_PAIR_FAILURE_LIMIT = 5;
export const LOGIN_EMAIL_FAILURE_CEILING = 50;
export const LOGIN_EMAIL_WINDOW_MINUTES = 15;
export const LOGIN_KNOWN_ADDRESS_DAYS = 30;
export const LOGIN_IP_ATTEMPT_LIMIT = 20;
export const LOGIN_IP_WINDOW_MINUTES = 1;

export type Role = "user" | "admin";

export type { LoginInput, RegisterInput } from "./accounts.schemas";

/**
 * An admin's own page in the admin panel (their two-factor sign-in and password): the one admin page the
 * admin guard opens to an admin without two-factor sign-in while the settings require it.
 */
export const ADMIN_ACCOUNT_PATH = "/admin/account";

/**
 * Where an admin turns on two-factor sign-in: the card of their own page, which the admin guard sends
 * them to when the settings require it. A customer's card is the dashboard's account tab.
 */
export const ADMIN_TWO_FACTOR_SETUP_PATH = `${ADMIN_ACCOUNT_PATH}#two-factor`;

/** Where a signed-in user lands: admins on the panel, everyone else on the dashboard (spec section 4). */
export function homeFor(role: string): string {
  return role === "admin" ? "/admin" : "/dashboard";
}

// An origin that can never be ours: a target is resolved against it and kept only if it stays there.
const PROBE_ORIGIN = "http://redirect.invalid";

// C0 controls, DEL, C1 controls and the backslash. Browsers drop tabs and line breaks from a URL before
// reading it (so "/\t/evil.example" is "//evil.example", another site) and read "\" as "/".
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\\]/;

/**
 * The one gate for every redirect whose target a request supplied (redirectTo after login, the language
 * switcher, the newsletter box, the maintenance reload, the way back from the login page): the target is
 * resolved against our origin and only a same-origin path is kept, with its query and hash, normalised
 * (percent-encoded, dot segments resolved). Anything else gives `fallback`: another scheme or host,
 * protocol-relative forms ("//", "/\\", "/\t/"), control characters or backslashes anywhere, a path that
 * decodes to one of those ("/%2F%2Fevil", "/%09/evil"), a relative or empty target, one over
 * MAX_REDIRECT_LENGTH.
 */
export function safeRedirect(target: unknown, fallback: string): string {
  if (typeof target !== "string" || target.length > MAX_REDIRECT_LENGTH) return fallback;
  if (!target.startsWith("/") || UNSAFE_CHARACTER.test(target)) return fallback;
  let url: URL;
  try {
    url = new URL(target, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  // What we send is the normalised path ("/.//evil" resolves to "//evil"), so that is what is checked,
  // also decoded once: a proxy or router that decodes before it resolves must not find a host in it.
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return fallback;
  }
  if (decoded.startsWith("//") || UNSAFE_CHARACTER.test(decoded)) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.length > MAX_REDIRECT_LENGTH ? fallback : path;
}

/** One of a user's own sessions that has not expired, the one in use marked `current`. */
export interface OwnSession {
  id: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
  current: boolean;
}
