import { redirect } from "react-router";
import type { RequestContext } from "~/context.server";
import { homeFor, safeRedirect } from "~/domain/accounts/accounts";
import type { SessionUser } from "~/domain/accounts/accounts.server";

export const CHANGE_PASSWORD_PATH = "/account/password";

function loginRedirect(request: Request) {
  const url = new URL(request.url);
  // The way back passes the same gate as every redirect target; a path it refuses is simply dropped.
  const back = safeRedirect(`${url.pathname}${url.search}`, "");
  return redirect(back ? `/login?redirectTo=${encodeURIComponent(back)}` : "/login");
}

/**
 * The one guard every protected loader and action calls. Anonymous visitors go to /login and come back
 * afterwards; a user whose password was set for them must choose their own first.
 */
export function requireUser(request: Request, context: RequestContext): SessionUser {
  const user = context.session?.user;
  if (!user) throw loginRedirect(request);
  if (user.mustChangePassword && new URL(request.url).pathname !== CHANGE_PASSWORD_PATH) {
    throw redirect(CHANGE_PASSWORD_PATH);
  }
  return user;
}

/** Admin pages: anonymous visitors go to /login, signed-in non-admins to / (spec section 6). */
export function requireAdmin(request: Request, context: RequestContext): SessionUser {
  const user = requireUser(request, context);
  if (user.role !== "admin") throw redirect("/");
  return user;
}

/** Login and registration pages send a signed-in user to where they belong. */
export function redirectSignedIn(context: RequestContext) {
  const user = context.session?.user;
  if (user) throw redirect(homeFor(user.role));
}
