import { useTranslation } from "~/i18n/use-translation";
import { FilterBar, listFilters } from "~/components/data-table/filter-bar";
import { byId, type Column, timeColumn } from "~/components/data-table/data-table";
import { column } from "~/components/data-table/column-presets";
import { ListTable } from "~/components/data-table/list-page";
import { Pager } from "~/components/data-table/pager";
import type { FailedLogin, SecurityQuery } from "~/domain/accounts/security-admin";
import { mediumDateTime } from "~/lib/intl-format";
import { visibleText } from "~/lib/visible-text";
import { AddressText, SecuritySection } from "./security-shared";

export type FailedLoginView = FailedLogin;

export function FailedLoginsSection({
  entries,
  hasMore,
  last24h,
  query,
  locale,
}: {
  entries: FailedLoginView[];
  hasMore: boolean;
  last24h: number;
  query: SecurityQuery;
  locale: string;
}) {
  const { t } = useTranslation("admin-security");
  const date = mediumDateTime(locale, { seconds: true });
  const filters = listFilters(query, "failed", [
    {
      kind: "search",
      name: "email",
      label: t("failed.email"),
      dir: "ltr",
      maxLength: 254,
      placeholder: t("failed.emailPlaceholder"),
    },
    {
      kind: "search",
      name: "address",
      label: t("failed.address"),
      dir: "ltr",
      maxLength: 64,
      placeholder: t("failed.addressPlaceholder"),
    },
  ]);
  const href = (page: number) => `${filters.href(page)}#failed-heading`;
  const columns: Column<FailedLoginView>[] = [
    timeColumn({
      id: "when",
      name: t("failed.when"),
      at: (entry) => entry.at,
      format: date,
      wide: true,
    }),
    column("email", t("failed.email"), (entry) => (
      // What a stranger typed: text in an ltr box, never markup.
      <span dir="ltr" className="break-all">
        {visibleText(entry.email)}
      </span>
    )),
    column("address", t("failed.address"), (entry) => <AddressText address={entry.address} />),
  ];
  return (
    <SecuritySection
      id="failed"
      title={t("failed.title")}
      headerClassName="flex flex-wrap items-baseline justify-between gap-2"
      intro={
        <p className="text-sm font-medium" data-testid="failed-last-24h">
          {t("failed.last24h", { count: last24h })}
        </p>
      }
    >
      <FilterBar
        filters={filters}
        label={t("failed.filter")}
        applyLabel={t("failed.apply")}
        wideColumns="lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto]"
      />
      <ListTable
        table={{ caption: t("failed.title"), columns, rows: entries, rowKey: byId }}
        empty={t(filters.filtered ? "failed.noMatch" : "failed.empty")}
      />
      <Pager page={query.page} hasMore={hasMore} href={href} />
    </SecuritySection>
  );
}
