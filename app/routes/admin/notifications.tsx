import {
  notificationActionSchema,
  notificationListQuerySchema,
} from "~/domain/notifications/notifications.schemas";
import {
  listNotificationPage,
  markNotificationsRead,
} from "~/domain/notifications/notifications.server";
import {
  NotificationsPage,
  type NotificationsActionResult,
} from "~/features/admin-notifications/notifications-page";
import { adminForm, adminPage, invalidForm, queryOf } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/notifications";

// The admin's own notifications, all of them (the bell lists the newest few): new orders and tickets,
// the worker's alerts (issue 24, docs/automation.md). "Mark all read" marks this admin's only.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { admin, t } = adminPage(url, context, "admin");
  const query = queryOf(url, notificationListQuerySchema);
  const list = await listNotificationPage(context.services.db, admin.id, query);
  return {
    meta: { title: t("nav.notifications") },
    ...list,
    query,
    locale: context.locale,
    timeZone: context.settings.general.timeZone,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, notificationActionSchema);
  if (!form.ok) return invalidForm(form.fieldErrors, "admin.notifications.errors.unknownAction");
  const marked = await markNotificationsRead(context.services.db, admin.id);
  return {
    ok: true,
    message: "admin.notifications.markedRead",
    count: marked,
  } satisfies NotificationsActionResult;
}

export default function AdminNotifications({ loaderData, actionData }: Route.ComponentProps) {
  return <NotificationsPage {...loaderData} result={actionData} />;
}
