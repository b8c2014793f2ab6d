import {
  notificationActionSchema,
  notificationListQuerySchema,
} from "~/domain/notifications/notifications.schemas";
import { markNotificationsRead } from "~/domain/notifications/notification-reads.server";
import { loadStaffNotificationsPage } from "~/domain/notifications/staff-notifications-page.server";
import { setStaffMailChoices } from "~/domain/mail/staff-mail-choices.server";
import {
  NotificationsPage,
  type NotificationsActionResult,
} from "~/features/admin-notifications/notifications-page";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/notifications";

// The admin's own notifications, all of them (the bell lists the newest few): new orders and tickets,
// the worker's alerts (docs/automation.md). "Mark all read" marks this admin's only. Its email card
// sets which staff messages this admin asked to be emailed (docs/mail.md).
export const loader = adminLoader(requestContext, {
  title: "admin.nav.notifications",
  permission: null,
  query: notificationListQuerySchema,
  load: async ({ db, admin, query, context }) => ({
    ...(await loadStaffNotificationsPage(db, admin.id, query)),
    timeZone: context.settings.general.timeZone,
  }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  null,
  notificationActionSchema,
  "admin.notifications.errors.unknownAction",
  async ({ db, admin, input }) => {
    if (input.intent === "staff-mail") {
      await setStaffMailChoices(db, { userId: admin.id, receive: input.receive });
      return {
        ok: true,
        form: "staff-mail",
        message: "admin.notifications.mail.saved",
      } satisfies NotificationsActionResult;
    }
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
