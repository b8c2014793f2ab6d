import { pageParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { staffMailChoicesSchema } from "~/domain/mail/mail.schemas";
import { NOTIFICATION_FILTERS } from "./notifications";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** /admin/notifications' query string: anything unexpected falls back to the default. */
export const notificationListQuerySchema = z.object({
  show: z.enum(NOTIFICATION_FILTERS).catch("all"),
  page: pageParam,
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

/**
 * /admin/notifications' actions: mark all the admin's own notifications read, or save which staff
 * messages they asked to be emailed (`staff-mail`).
 */
export const notificationActionSchema = z.discriminatedUnion(
  "intent",
  [z.object({ intent: z.literal("read-all") }), staffMailChoicesSchema],
  { error: "admin.notifications.errors.unknownAction" },
);
