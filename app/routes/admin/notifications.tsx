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
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/notifications";

// The admin's own notifications, all of them (the bell lists the newest few): new orders and tickets,
// the worker's alerts (docs/automation.md). "Mark all read" marks this admin's only.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.notifications",
  query: notificationListQuerySchema,
  load: async ({ db, admin, query, context }) => ({
    ...(await listNotificationPage(db, admin.id, query)),
    timeZone: context.settings.general.timeZone,
  }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  notificationActionSchema,
  "admin.notifications.errors.unknownAction",
  async ({ db, admin }) => {
    const marked = await markNotificationsRead(db, admin.id);
    return {
      ok: true,
      message: "admin.notifications.markedRead",
      count: marked,
    } satisfies NotificationsActionResult;
  },
);

export default function AdminNotifications({ loaderData, actionData }: Route.ComponentProps) {
  return <NotificationsPage {...loaderData} result={actionData} />;
}
