import { listFilters } from "~/components/data-table/filter-bar";
import { byId, type Column, timeColumn } from "~/components/data-table/data-table";
import { actionsColumn, column } from "~/components/data-table/column-presets";
import { FilteredListPage } from "~/components/data-table/list-page";
import { ResultMessage } from "~/components/ui/result-message";
import type { SubscriberListQuery } from "~/domain/inbox/inbox";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { useInboxWords, type InboxListProps } from "./contact-messages-page";
import type { SubscriberView as SubscriberRow } from "~/domain/inbox/inbox";
import { DownloadLink } from "~/components/ui/page-heading";
import { Badge } from "~/components/ui/badge";

export function NewsletterPage({
  subscribers,
  hasMore,
  matching,
  total,
  query,
  locale,
  result,
}: InboxListProps<SubscriberListQuery> & { subscribers: SubscriberRow[] }) {
  const { t, tAdmin, date } = useInboxWords(locale);
  const filters = listFilters(query, "subscriber", [
    {
      kind: "search",
      name: "q",
      label: t("newsletter.search"),
      dir: "ltr",
      placeholder: t("newsletter.searchPlaceholder"),
    },
  ]);
  const columns: Column<SubscriberRow>[] = [
    column(
      "email",
      t("newsletter.email"),
      (subscriber) => (
        <span dir="ltr" className="font-medium">
          {subscriber.email}
        </span>
      ),
      { wide: true },
    ),
    column("status", t("newsletter.status"), (subscriber) =>
      subscriber.confirmedAt ? (
        <Badge tone="green">{t("newsletter.confirmed")}</Badge>
      ) : (
        <Badge>{t("newsletter.waiting")}</Badge>
      ),
    ),
    timeColumn({
      id: "subscribed",
      name: t("newsletter.subscribed"),
      at: (subscriber) => subscriber.createdAt,
      format: date,
    }),
    actionsColumn(t("newsletter.actions"), (subscriber) => (
      <ConfirmDialog
        fields={{ intent: "remove", id: String(subscriber.id) }}
        labels={{
          trigger: t("newsletter.remove"),
          triggerFor: t("newsletter.removeFor", { email: subscriber.email }),
          title: t("newsletter.removeTitle"),
          text: t("newsletter.removeText", { email: subscriber.email }),
          confirm: t("newsletter.removeConfirm"),
          cancel: t("newsletter.cancel"),
          close: t("newsletter.dialogClose"),
        }}
        textClassName="wrap-anywhere"
      />
    )),
  ];
  return (
    <FilteredListPage
      heading={{
        title: tAdmin("nav.newsletter"),
        intro: t("newsletter.intro"),
        action: (
          <DownloadLink href="/admin/newsletter.csv">{t("newsletter.download")}</DownloadLink>
        ),
        children: (
          <p className="text-sm font-medium" data-testid="subscriber-count">
            {t("newsletter.count", { count: total })}
          </p>
        ),
      }}
      filters={filters}
      filterBar={{
        label: t("newsletter.search"),
        applyLabel: t("newsletter.apply"),
        className: "sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end",
      }}
      table={{ columns, rows: subscribers, rowKey: byId }}
      empty={t("newsletter.empty")}
      noMatch={t("newsletter.noMatch")}
      matching={t("newsletter.matching", { count: matching })}
      hasMore={hasMore}
    >
      {result ? <ResultMessage result={result} /> : null}
    </FilteredListPage>
  );
}
