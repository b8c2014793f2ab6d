import { markNotificationsRead } from "~/domain/notifications/notifications.server";
import { requireUser } from "~/http/guards.server";
import type { Route } from "./+types/notifications";

// Opening the bell's list marks the user's notifications read.
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  await markNotificationsRead(context.services.db, user.id);
  return { ok: true };
}
