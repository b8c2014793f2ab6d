import type { Db } from "~/db/transaction";
import { staffMailChoicesOf } from "~/domain/mail/staff-mail-choices.server";
import { listNotificationPage } from "./notification-reads.server";

/**
 * /admin/notifications: a page of the admin's own notifications, and which staff messages they asked
 * to be emailed (the page's email card).
 */
export async function loadStaffNotificationsPage(
  db: Db,
  adminId: string,
  query: Parameters<typeof listNotificationPage>[2],
) {
  const [page, mailChoices] = await Promise.all([
    listNotificationPage(db, adminId, query),
    staffMailChoicesOf(db, adminId),
  ]);
  return { ...page, mailChoices };
}
