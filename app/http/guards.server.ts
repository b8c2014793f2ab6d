import { data, redirect } from "react-router";
import { can, type Permission, type StaffRole } from "~/domain/staff/permissions";
import type { RequestContext } from "~/context.server";
import {
  ADMIN_ACCOUNT_PATH,
  ADMIN_TWO_FACTOR_SETUP_PATH,
  homeFor,
  safeRedirect,
} from "~/domain/accounts/accounts";
import type { SessionUser } from "~/domain/accounts/accounts.server";
import { VIEW_AS_LANDING } from "~/domain/staff/view-as";
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
 * Admin pages and actions: anonymous visitors go to /login, signed-in customers to / (spec section 6).
 * When the security settings require two-factor sign-in of the member's staff role, a member without a
 * second factor is sent to set one up, with a toast saying why, before any admin loader or action does
 * anything: the setup card is on the member's own page (ADMIN_ACCOUNT_PATH), the one admin page this
 * lets them reach (its loader, the shell's and its action all see its address), and signing out is no
 * admin page, so neither is locked away from them. What the member may do there is `requirePermission`'s.
 */
export function requireAdmin(url: URL, context: RequestContext): SessionUser {
  // Viewing the site as a customer, the whole site is the customer's: the admin pages come back once the
  // member leaves the view (the banner on the customer's pages says how).
  if (context.session?.viewer) throw redirect(VIEW_AS_LANDING);
  const user = requireUser(url, context);
  if (user.role !== "admin") throw redirect("/");
  const ownPage = url.pathname.replace(/\/+$/, "") === ADMIN_ACCOUNT_PATH;
  const required =
    user.staffRole !== null && context.settings.security.twoFactorRoles.includes(user.staffRole);
  if (required && !user.twoFactorEnabled && !ownPage)
    throw redirect(ADMIN_TWO_FACTOR_SETUP_PATH, {
      headers: headersWithCookies([flashToast({ key: "toast.twoFactorRequired", type: "info" })]),
    });
  return user;
}

/** What a refused admin page or post answers with (403): the permission the member's role lacks. */
export interface PermissionRefusal {
  refused: "permission";
  permission: Permission;
  role: StaffRole | null;
}

/**
 * The one guard of every admin loader and action: a member of the staff whose role holds `permission`
 * (app/domain/staff/permissions.ts). Anyone else is turned away as requireAdmin does; a member without
 * it gets a 403 naming the permission, which the admin shell shows as a page ("refused.title").
 */
export function requirePermission(
  url: URL,
  context: RequestContext,
  permission: Permission | null,
): SessionUser {
  const admin = requireAdmin(url, context);
  if (permission !== null && !can(admin.staffRole, permission))
    throw permissionRefusal(admin, permission);
  return admin;
}

/** The 403 a member gets for what their role does not hold, thrown by the guard. */
export function permissionRefusal(admin: SessionUser, permission: Permission) {
  return data(
    { refused: "permission", permission, role: admin.staffRole } satisfies PermissionRefusal,
    { status: 403 },
  );
}

/** Login and registration pages send a signed-in user to where they belong. */
export function redirectSignedIn(context: RequestContext) {
  const user = context.session?.user;
  if (user) throw redirect(homeFor(user.role));
}
