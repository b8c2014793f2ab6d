import { useTranslation } from "~/i18n/use-translation";
import {
  NOTIFICATION_LABELS,
  notificationValues,
  type Notification,
} from "~/domain/notifications/notifications";
import { mediumDateTime } from "~/lib/intl-format";
import { DEPARTMENT_LABELS, DEPARTMENTS, type Department } from "~/domain/tickets/tickets";

function isDepartment(value: unknown): value is Department {
  return (DEPARTMENTS as readonly unknown[]).includes(value);
}

// The namespace of the notifications' texts: their own, so that a page that shows no ticket does not
// carry the tickets' catalogue for the bell.
const NOTIFICATION_NAMESPACE = "notifications";

/**
 * Notes the notifications' catalogue as one the page uses, for a component that writes them only later:
 * the bell renders its list only when opened, and the page must already carry the texts then (in the
 * browser a missing namespace is loaded first, and the menu would wait for it). useTranslation rather
 * than useRecordNamespace, which notes the namespace on the server only: after a link to a page the
 * first one did not carry it on, the browser loads it with the page, not when the menu opens.
 */
export function useNotificationCatalogue() {
  useTranslation(NOTIFICATION_NAMESPACE);
}

/**
 * How the bell and /admin/notifications write a notification, in the reader's language: its text (coins,
 * moments and a ticket's department written for the reader) and when it came, both in the site's time
 * zone so the server and the browser agree.
 */
export function useNotificationText({ locale, timeZone }: { locale: string; timeZone: string }) {
  const { t } = useTranslation(NOTIFICATION_NAMESPACE);
  const { t: tCommon } = useTranslation("common");
  const moment = mediumDateTime(locale, { timeZone });
  return {
    text: (item: Pick<Notification, "kind" | "params">) => {
      const values = notificationValues(item.params, { locale, timeZone });
      if (isDepartment(item.params.department))
        values.department = tCommon(DEPARTMENT_LABELS[item.params.department]);
      return t(NOTIFICATION_LABELS[item.kind], values);
    },
    when: (item: Pick<Notification, "createdAt">) => moment.format(new Date(item.createdAt)),
  };
}
