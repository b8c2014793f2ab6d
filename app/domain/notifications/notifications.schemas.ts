import { pageParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { NOTIFICATION_FILTERS } from "./notifications";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** /admin/notifications' query string: anything unexpected falls back to the default. */
export const notificationListQuerySchema = z.object({
  show: z.enum(NOTIFICATION_FILTERS).catch("all"),
  page: pageParam,
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

/** /admin/notifications' one action: mark all the admin's own notifications read. */
export const notificationActionSchema = z.object(
  { intent: z.literal("read-all", { error: "admin.notifications.errors.unknownAction" }) },
  { error: "admin.notifications.errors.unknownAction" },
);
