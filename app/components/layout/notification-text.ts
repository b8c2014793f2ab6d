import { useTranslation } from "~/i18n/use-translation";
import {
  momentFormat,
  NOTIFICATION_LABELS,
  notificationValues,
  type Notification,
} from "~/domain/notifications/notifications";
import { DEPARTMENT_LABELS, DEPARTMENTS, type Department } from "~/domain/tickets/tickets";

function isDepartment(value: unknown): value is Department {
  return (DEPARTMENTS as readonly unknown[]).includes(value);
}

/**
 * How the bell and /admin/notifications write a notification, in the reader's language: its text (coins,
 * moments and a ticket's department written for the reader) and when it came, both in the site's time
 * zone so the server and the browser agree.
 */
export function useNotificationText({ locale, timeZone }: { locale: string; timeZone: string }) {
  const { t } = useTranslation("tickets");
  const moment = momentFormat(locale, timeZone);
  return {
    text: (item: Pick<Notification, "kind" | "params">) => {
      const values = notificationValues(item.params, { locale, timeZone });
      if (isDepartment(item.params.department))
        values.department = t(DEPARTMENT_LABELS[item.params.department]);
      return t(NOTIFICATION_LABELS[item.kind], values);
    },
    when: (item: Pick<Notification, "createdAt">) => moment.format(new Date(item.createdAt)),
  };
}
