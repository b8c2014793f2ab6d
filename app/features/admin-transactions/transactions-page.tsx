import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { byId, type Column, timeColumn } from "~/components/data-table/data-table";
import { coinMovementColumns, column, signedCoins } from "~/components/data-table/column-presets";
import { listFilters } from "~/components/data-table/filter-bar";
import { FilteredListPage } from "~/components/data-table/list-page";
import { Card } from "~/components/ui/card";
import { ClientLink } from "~/components/ui/client-link";
import { choicesOf } from "~/components/ui/form-card";
import { LEDGER_KIND_LABELS, LEDGER_KINDS, type LedgerKind } from "~/domain/coins/coins";
import { ledgerReasonText } from "~/domain/coins/ledger-reason";
import type {
  LedgerReportQuery,
  LedgerReportRow,
  LedgerTotals,
} from "~/domain/coins/ledger-report";
import { mediumDateTime, numberFormat } from "~/lib/intl-format";

export type LedgerRowView = LedgerReportRow;

export function TransactionsPage({
  entries,
  hasMore,
  totals,
  query,
  locale,
}: {
  entries: LedgerRowView[];
  hasMore: boolean;
  totals: LedgerTotals;
  query: LedgerReportQuery;
  locale: string;
}) {
  const { t } = useTranslation("admin");
  const { t: tCoins } = useTranslation("coins");
  const kindLabel = (kind: string) =>
    kind in LEDGER_KIND_LABELS ? tCoins(LEDGER_KIND_LABELS[kind as LedgerKind]) : kind;
  const reasonOf = (entry: LedgerRowView) =>
    ledgerReasonText(entry, (key, params) => tCoins(key, params));
  const date = mediumDateTime(locale);
  const filters = listFilters(query, "tx", [
    {
      kind: "search",
      name: "customer",
      label: t("transactions.customer"),
      className: "sm:col-span-2 lg:col-span-1",
      dir: "ltr",
      placeholder: t("transactions.customerPlaceholder"),
    },
    {
      kind: "select",
      name: "kind",
      label: t("transactions.kind"),
      anyLabel: t("transactions.anyKind"),
      options: choicesOf(LEDGER_KINDS, (kind) => tCoins(LEDGER_KIND_LABELS[kind])),
    },
    { kind: "date", name: "from", label: t("transactions.from") },
    { kind: "date", name: "to", label: t("transactions.to") },
  ]);
  const count = numberFormat(locale);
  // Past the limit only the count is shown ("more than 1,000"): the sums would mean reading every row.
  const figures = totals.capped
    ? [
        {
          key: "entries",
          label: t("transactions.totalEntries"),
          value: t("transactions.moreThan", { limit: count.format(totals.entries) }),
        },
      ]
    : [
        {
          key: "entries",
          label: t("transactions.totalEntries"),
          value: count.format(totals.entries),
        },
        {
          key: "credits",
          label: t("transactions.totalCredits"),
          value: signedCoins(totals.creditsCents, locale),
        },
        {
          key: "debits",
          label: t("transactions.totalDebits"),
          value: signedCoins(totals.debitsCents, locale),
        },
        {
          key: "net",
          label: t("transactions.totalNet"),
          value: signedCoins(totals.netCents, locale),
        },
      ];
  const columns: Column<LedgerRowView>[] = [
    timeColumn({ id: "when", name: t("transactions.when"), at: (entry) => entry.at, format: date }),
    column("customer", t("transactions.customer"), (entry) => (
      <>
        <span>
          <ClientLink userId={entry.userId}>{entry.userName}</ClientLink>
        </span>
        <span className="block text-xs text-muted-foreground" dir="ltr">
          {entry.userEmail}
        </span>
      </>
    )),
    column("kind", t("transactions.kind"), (entry) => (
      <>
        <span>{kindLabel(entry.kind)}</span>
        {entry.orderId ? (
          <Link
            className="block text-xs text-primary hover:underline"
            to={`/admin/orders?id=${entry.orderId}`}
          >
            {t("transactions.order", { id: entry.orderId })}
          </Link>
        ) : null}
      </>
    )),
    ...coinMovementColumns<LedgerRowView>(
      { amount: t("transactions.amount"), balance: t("transactions.balanceAfter") },
      locale,
    ),
    column(
      "reason",
      t("transactions.reason"),
      (entry) => (
        <>
          <span dir="auto">{reasonOf(entry)}</span>
          {entry.actorEmail && entry.actorEmail !== entry.userEmail ? (
            <span className="block text-xs text-muted-foreground">
              {t("transactions.by", { email: entry.actorEmail })}
            </span>
          ) : null}
        </>
      ),
      { wide: true },
    ),
  ];
  return (
    <FilteredListPage
      heading={{ title: t("nav.transactions"), intro: t("transactions.intro") }}
      filters={filters}
      filterBar={{
        label: t("transactions.filter"),
        wideColumns: "lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto]",
      }}
      table={{ columns, rows: entries, rowKey: byId }}
      empty={t("transactions.empty")}
      noMatch={t("transactions.noMatch")}
      hasMore={hasMore}
    >
      <section aria-label={t("transactions.totals")}>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {figures.map((figure) => (
            <Card key={figure.key} className="grid gap-1 px-6 py-4">
              <dt className="text-xs text-muted-foreground">{figure.label}</dt>
              <dd className="text-xl font-bold" dir="ltr" data-testid={`total-${figure.key}`}>
                {figure.value}
              </dd>
            </Card>
          ))}
        </dl>
        <p className="mt-2 text-xs text-muted-foreground">
          {totals.capped
            ? t("transactions.totalsCapped", { limit: count.format(totals.entries) })
            : t("transactions.totalsNote")}
        </p>
      </section>
    </FilteredListPage>
  );
}
