import { Link } from "~/components/ui/link";
import { byId, type Column } from "~/components/data-table/data-table";
import { badgeColumn, column } from "~/components/data-table/column-presets";
import { listFilters } from "~/components/data-table/filter-bar";
import { FilteredListPage } from "~/components/data-table/list-page";
import { useNotificationText } from "~/components/layout/notification-text";
import { choicesOf } from "~/components/ui/form-card";
import { IntentButton } from "~/components/ui/intent-button";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import {
  NOTIFICATION_FILTER_LABELS,
  NOTIFICATION_FILTERS,
  type Notification,
  type NotificationListQuery,
} from "~/domain/notifications/notifications";
import type { StaffMailChoice } from "~/domain/mail/mail";
import { useTranslation } from "~/i18n/use-translation";
import { cn } from "~/lib/utils";
import { StaffMailCard } from "./staff-mail-card";

/** What "Mark all read" answers (how many it marked), or the email card's save (`form`). */
export interface NotificationsActionResult extends Pick<ActionResult, "ok" | "message"> {
  count?: number;
  form?: "staff-mail";
}

/**
 * /admin/notifications: every notification of the signed-in admin, newest first, each linking to what it
 * is about, with "Mark all read" (theirs only). The bell lists the newest few; this page has the rest.
 * Above them, the admin's email card: which staff messages they asked to be emailed.
 */
export function NotificationsPage({
  notifications,
  hasMore,
  matching,
  total,
  unread,
  query,
  locale,
  timeZone,
  mailChoices,
  result,
}: {
  notifications: Notification[];
  hasMore: boolean;
  matching: number;
  total: number;
  unread: number;
  query: NotificationListQuery;
  locale: string;
  timeZone: string;
  mailChoices: StaffMailChoice[];
  result?: NotificationsActionResult;
}) {
  const { t } = useTranslation("admin");
  const { text, when } = useNotificationText({ locale, timeZone });
  const filters = listFilters(query, "notifications", [
    {
      kind: "select",
      name: "show",
      label: t("notifications.show"),
      options: choicesOf(NOTIFICATION_FILTERS, (filter) => t(NOTIFICATION_FILTER_LABELS[filter])),
      anyValue: "all",
    },
  ]);
  const columns: Column<Notification>[] = [
    column(
      "what",
      t("notifications.what"),
      (item) => (
        <Link
          to={item.link}
          className={cn("underline-offset-4 hover:underline", !item.read && "font-semibold")}
        >
          {text(item)}
        </Link>
      ),
      { wide: true },
    ),
    column(
      "when",
      t("notifications.when"),
      (item) => <time dateTime={item.createdAt}>{when(item)}</time>,
      { className: "md:whitespace-nowrap" },
    ),
    badgeColumn(
      "status",
      t("notifications.status"),
      (item) =>
        item.read
          ? { tone: "grey", text: t("notifications.read") }
          : { tone: "blue", text: t("notifications.unreadBadge") },
      { label: true },
    ),
  ];
  return (
    <FilteredListPage
      heading={{
        title: t("nav.notifications"),
        intro: t("notifications.intro"),
        action:
          unread > 0 ? (
            <IntentButton intent="read-all" fields={{}} variant="outline">
              {t("notifications.markAllRead")}
            </IntentButton>
          ) : null,
        children: (
          <p className="text-sm font-medium" data-testid="notification-counts">
            {t("notifications.unread", { count: unread })}
            {" · "}
            {t("notifications.count", { count: total })}
          </p>
        ),
      }}
      filters={filters}
      filterBar={{
        label: t("notifications.filter"),
        className: "sm:grid-cols-[minmax(0,16rem)_auto] sm:items-end sm:justify-start",
      }}
      table={{ columns, rows: notifications, rowKey: byId }}
      empty={t("notifications.empty")}
      noMatch={t("notifications.noneUnread")}
      matching={t("notifications.matching", { count: matching })}
      hasMore={hasMore}
    >
      <StaffMailCard receive={mailChoices} result={result?.form === "staff-mail" ? result : null} />
      {result && !result.form ? (
        <ResultMessage result={result} values={{ count: result.count ?? 0 }} />
      ) : null}
    </FilteredListPage>
  );
}
