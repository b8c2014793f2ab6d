import { useTranslation } from "~/i18n/use-translation";
import { FilterBar, FilterSearch } from "~/components/data-table/filter-bar";
import { byId, type Column, timeColumn } from "~/components/data-table/data-table";
import { column } from "~/components/data-table/column-presets";
import { ListTable } from "~/components/data-table/list-page";
import { Pager, pageHref } from "~/components/data-table/pager";
import type { FailedLogin, SecurityQuery } from "~/domain/accounts/security-admin";
import { visibleText } from "~/lib/visible-text";
import { AddressText, dateFormat } from "./security-shared";

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
  const date = dateFormat(locale, true);
  const filtered = Boolean(query.email || query.address);
  const href = (page: number) =>
    `${pageHref({ email: query.email, address: query.address }, page)}#failed-heading`;
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
    <section aria-labelledby="failed-heading" className="grid min-w-0 gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="failed-heading" className="text-xl font-semibold">
          {t("failed.title")}
        </h2>
        <p className="text-sm font-medium" data-testid="failed-last-24h">
          {t("failed.last24h", { count: last24h })}
        </p>
      </div>
      <FilterBar
        label={t("failed.filter")}
        applyLabel={t("failed.apply")}
        clearLabel={t("failed.clear")}
        filtered={filtered}
        className="sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] lg:items-end"
        actionsClassName="sm:col-span-2 lg:col-span-1"
      >
        <FilterSearch
          id="failed-email"
          label={t("failed.email")}
          name="email"
          dir="ltr"
          maxLength={254}
          defaultValue={query.email ?? ""}
          placeholder={t("failed.emailPlaceholder")}
        />
        <FilterSearch
          id="failed-address"
          label={t("failed.address")}
          name="address"
          dir="ltr"
          maxLength={64}
          defaultValue={query.address ?? ""}
          placeholder={t("failed.addressPlaceholder")}
        />
      </FilterBar>
      <ListTable
        table={{ caption: t("failed.title"), columns, rows: entries, rowKey: byId }}
        empty={t(filtered ? "failed.noMatch" : "failed.empty")}
      />
      <Pager page={query.page} hasMore={hasMore} href={href} />
    </section>
  );
}
