import { redirect } from "react-router";
import { markNotificationsRead } from "~/domain/notifications/notification-reads.server";
import { requireUser } from "~/http/guards.server";
import type { Route } from "./+types/notifications";
import { requestContext } from "~/context.server";

// Only the bell posts here; a visitor who opens the address goes home rather than to React Router's
// "no loader" error (a 400 reading "Unexpected Server Error").
export function loader() {
  return redirect("/");
}

// Opening the bell's list marks the user's notifications read.
export async function action({ url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  await markNotificationsRead(context.services.db, user.id);
  return { ok: true };
}
