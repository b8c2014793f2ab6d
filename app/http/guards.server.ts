import { redirect } from "react-router";
import type { RequestContext } from "~/context.server";
import {
  ADMIN_ACCOUNT_PATH,
  ADMIN_TWO_FACTOR_SETUP_PATH,
  homeFor,
  safeRedirect,
} from "~/domain/accounts/accounts";
import type { SessionUser } from "~/domain/accounts/accounts.server";
import { flashToast, headersWithCookies } from "./toast.server";

export const CHANGE_PASSWORD_PATH = "/account/password";

function loginRedirect(url: URL) {
  // The way back passes the same gate as every redirect target; a path it refuses is simply dropped.
  const back = safeRedirect(`${url.pathname}${url.search}`, "");
  return redirect(back ? `/login?redirectTo=${encodeURIComponent(back)}` : "/login");
}

/**
 * The one guard every protected loader and action calls. Anonymous visitors go to /login and come back
 * afterwards; a user whose password was set for them must choose their own first.
 *
 * `url` is the loader's or action's `url` argument: the page's address, which on a data request React
 * Router gives without its `.data` suffix and `_routes`/`index` parameters (React Router 8;
 * ADR 18), where `request.url` is the raw one.
 */
export function requireUser(url: URL, context: RequestContext): SessionUser {
  const user = context.session?.user;
  if (!user) throw loginRedirect(url);
  if (user.mustChangePassword && url.pathname !== CHANGE_PASSWORD_PATH) {
    throw redirect(CHANGE_PASSWORD_PATH);
  }
  return user;
}

/**
 * Admin pages and actions: anonymous visitors go to /login, signed-in non-admins to / (spec section 6).
 * With the "require two-factor for admins" setting on, an admin without a second factor is
 * sent to set one up, with a toast saying why, before any admin loader or action does anything: the
 * setup card is on the admin's own page (ADMIN_ACCOUNT_PATH), the one admin page this lets them
 * reach (its loader, the shell's and its action all see its address), and signing out is no admin
 * page, so neither is locked away from them.
 */
export function requireAdmin(url: URL, context: RequestContext): SessionUser {
  const user = requireUser(url, context);
  if (user.role !== "admin") throw redirect("/");
  const ownPage = url.pathname.replace(/\/+$/, "") === ADMIN_ACCOUNT_PATH;
  if (context.settings.security.requireAdminTwoFactor && !user.twoFactorEnabled && !ownPage)
    throw redirect(ADMIN_TWO_FACTOR_SETUP_PATH, {
      headers: headersWithCookies([flashToast({ key: "toast.twoFactorRequired", type: "info" })]),
    });
  return user;
}

/** Login and registration pages send a signed-in user to where they belong. */
export function redirectSignedIn(context: RequestContext) {
  const user = context.session?.user;
  if (user) throw redirect(homeFor(user.role));
}
