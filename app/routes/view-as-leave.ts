import { redirect } from "react-router";
import { requestContext } from "~/context.server";
import { endViewAs } from "~/domain/staff/view-as.server";
import type { Route } from "./+types/view-as-leave";

// POST /view-as/leave: the banner's "Leave this view" (ADR 57), one of the two posts the read-only view
// lets through (app/http/view-as-gate.server.ts). The member of the staff is back on the customer's
// client page.

/** Leaving changes state, so it only happens on POST; a GET just goes home. */
export function loader() {
  return redirect("/");
}

export async function action({ context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const session = context.session;
  if (!session) return redirect("/login");
  // The member of the staff: the viewer while the view holds, else the session's own user (a view that
  // lapsed, its customer deleted meanwhile, is cleared all the same). A customer's session views no one.
  const staff = session.viewer ?? session.user;
  if (staff.role !== "admin") return redirect("/");
  const ended = await endViewAs(context.services.db, {
    sessionId: session.sessionId,
    actorId: staff.id,
    via: "leave",
    now: context.services.clock(),
  });
  return redirect(
    ended.customerId ? `/admin/clients/${encodeURIComponent(ended.customerId)}` : "/admin",
  );
}
