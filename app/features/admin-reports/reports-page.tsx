import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { DownloadLink, PageHeading } from "~/components/ui/page-heading";
import { DataTable, type Column } from "~/components/data-table/data-table";
import { Card, CardContent } from "~/components/ui/card";
import {
  REPORT_TYPE_LABELS,
  type MoneyReceived,
  type MonthlyReport,
  type ReportCell,
  type ReportType,
} from "~/domain/reports/reports";
import { directionOf } from "~/i18n/locales";
import { formatEuros, formatEurosCompact } from "~/lib/money";
import { cn } from "~/lib/utils";
import { MoneyReceivedSection } from "./money-received";
import { CancellationReasonsSection } from "./cancellation-reasons";
import type { CancellationReasonCount } from "~/domain/hosting-services/cancellation";
import { StackedBarChart, type MonthLabel } from "./stacked-bar-chart";
import { dateTimeFormat, numberFormat } from "~/lib/intl-format";

/** One colour per product type, the same in the charts and their legend. */
const TYPE_COLOURS = {
  samp: { fill: "fill-sky-600", swatch: "bg-sky-600" },
  mta: { fill: "fill-amber-500", swatch: "bg-amber-500" },
  vps: { fill: "fill-emerald-600", swatch: "bg-emerald-600" },
  game: { fill: "fill-violet-600", swatch: "bg-violet-600" },
  other: { fill: "fill-slate-400", swatch: "bg-slate-400" },
} as const satisfies Record<ReportType, { fill: string; swatch: string }>;

const monthDate = (month: string) => new Date(`${month}-01T00:00:00.000Z`);

function Legend({ types, label }: { types: { type: ReportType; name: string }[]; label: string }) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {types.map(({ type, name }) => (
        <li key={type} className="flex items-center gap-1.5">
          <span className={`size-3 shrink-0 rounded-sm ${TYPE_COLOURS[type].swatch}`} />
          {name}
        </li>
      ))}
    </ul>
  );
}

/** The figures of one measure as a table: a row per month, a column per type, totals last. */
function ReportTable({
  id,
  caption,
  report,
  monthName,
  typeNames,
  value,
}: {
  id: "orders" | "coins";
  caption: string;
  report: MonthlyReport;
  monthName: (month: string) => string;
  typeNames: string[];
  value: (cell: ReportCell) => ReactNode;
}) {
  const { t } = useTranslation("admin-reports");
  const rows = [
    ...report.rows.map((row) => ({ key: row.month, label: monthName(row.month), ...row })),
    { key: "total", label: t("total12"), month: "total", ...report.totals },
  ];
  type Row = (typeof rows)[number];
  const figure = (testId: (row: Row) => string, cell: (row: Row) => ReportCell, bold = false) => ({
    className: "md:text-end",
    headerClassName: "md:text-end",
    cell: (row: Row) => (
      // The figure reads left to right; the cell keeps the page's alignment.
      <span
        className={
          bold ? "font-mono font-semibold md:whitespace-nowrap" : "font-mono md:whitespace-nowrap"
        }
        data-testid={testId(row)}
      >
        <span dir="ltr">{value(cell(row))}</span>
      </span>
    ),
  });
  const columns: Column<Row>[] = [
    {
      id: "month",
      header: t("month"),
      wide: true,
      className: (row) =>
        cn("col-span-3", row.key === "total" ? "font-bold" : "font-semibold md:font-normal"),
      cell: (row) => <span>{row.label}</span>,
    },
    ...report.types.map((type, i) => ({
      id: type,
      header: typeNames[i],
      label: typeNames[i],
      ...figure(
        (row) => `${id}-${row.month}-${type}`,
        (row) => row.byType[i]!,
      ),
    })),
    {
      id: "total",
      header: t("total"),
      label: t("total"),
      ...figure(
        (row) => `${id}-${row.month}-total`,
        (row) => row.total,
        true,
      ),
    },
  ];
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={(row) => row.key}
      // Three figures a line on a phone: a month's card stays short.
      rowClassName="grid-cols-3"
    />
  );
}

export function ReportsPage({
  report,
  money,
  reasons = [],
  locale,
}: {
  report: MonthlyReport;
  money: MoneyReceived;
  /** Why customers cancelled over the same months. */
  reasons?: CancellationReasonCount[];
  locale: string;
}) {
  const { t } = useTranslation("admin-reports");
  const { t: tAdmin } = useTranslation("admin");
  const rtl = directionOf(locale) === "rtl";
  const format = (options: Intl.DateTimeFormatOptions) =>
    dateTimeFormat(locale, { ...options, timeZone: "UTC" });
  const longMonth = format({ month: "long", year: "numeric" });
  const shortMonth = format({ month: "short" });
  const year = format({ year: "numeric" });
  const monthName = (month: string) => longMonth.format(monthDate(month));
  const monthLabels: MonthLabel[] = report.months.map((month, i) => ({
    short: shortMonth.format(monthDate(month)),
    long: monthName(month),
    year: i === 0 || month.endsWith("-01") ? year.format(monthDate(month)) : null,
  }));
  const types = report.types.map((type) => ({ type, name: t(REPORT_TYPE_LABELS[type]) }));
  const typeNames = types.map((type) => type.name);
  const series = (pick: (cell: ReportCell) => number) =>
    types.map(({ type, name }, i) => ({
      key: type,
      label: name,
      fill: TYPE_COLOURS[type].fill,
      values: report.rows.map((row) => pick(row.byType[i]!)),
    }));
  const orders = numberFormat(locale);
  // The two figures, each charted by month and type, then tabled.
  const charts = [
    {
      id: "coins" as const,
      title: t("coins.title"),
      caption: t("coins.table"),
      pick: (cell: ReportCell) => cell.coinsCents,
      formatTick: (cents: number) => formatEurosCompact(cents, locale),
      formatValue: (cents: number) => formatEuros(cents, locale),
    },
    {
      id: "orders" as const,
      title: t("orders.title"),
      caption: t("orders.table"),
      pick: (cell: ReportCell) => cell.orders,
      formatTick: (count: number) => orders.format(count),
      formatValue: (count: number) => orders.format(count),
    },
  ];
  const first = report.months[0]!;
  const last = report.months[report.months.length - 1]!;

  return (
    <main className="grid min-w-0 gap-6">
      <PageHeading
        title={tAdmin("nav.reports")}
        intro={t("intro")}
        action={<DownloadLink href="/admin/reports.csv">{t("download")}</DownloadLink>}
      >
        <p className="text-sm text-muted-foreground">
          {t("period", { from: monthName(first), to: monthName(last) })}
        </p>
      </PageHeading>

      <section aria-label={t("summary")}>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-3">
          <Card className="grid gap-1 px-6 py-4">
            <dt className="text-xs text-muted-foreground">{t("totalOrders")}</dt>
            <dd className="text-xl font-bold" data-testid="report-total-orders">
              <span dir="ltr">{orders.format(report.totals.total.orders)}</span>
            </dd>
          </Card>
          <Card className="grid gap-1 px-6 py-4">
            <dt className="text-xs text-muted-foreground">{t("totalCoins")}</dt>
            <dd className="text-xl font-bold" data-testid="report-total-coins">
              <span dir="ltr">{formatEuros(report.totals.total.coinsCents, locale)}</span>
            </dd>
          </Card>
          <Card className="grid gap-1 px-6 py-4">
            <dt className="text-xs text-muted-foreground">{t("totalBought")}</dt>
            <dd className="text-xl font-bold" data-testid="report-total-bought">
              <span dir="ltr">{formatEuros(money.coinsBoughtCents, locale)}</span>
            </dd>
          </Card>
        </dl>
      </section>

      {charts.map((chart) => (
        <section
          key={chart.id}
          aria-labelledby={`report-${chart.id}`}
          className="grid min-w-0 gap-3"
        >
          <h2 id={`report-${chart.id}`} className="text-lg font-semibold">
            {chart.title}
          </h2>
          <Card>
            <CardContent className="grid gap-3 pt-4">
              <StackedBarChart
                months={monthLabels}
                series={series(chart.pick)}
                rtl={rtl}
                formatTick={chart.formatTick}
                formatValue={chart.formatValue}
              />
              <Legend types={types} label={t("legend")} />
            </CardContent>
          </Card>
          <ReportTable
            id={chart.id}
            caption={chart.caption}
            report={report}
            monthName={monthName}
            typeNames={typeNames}
            value={(cell) => chart.formatValue(chart.pick(cell))}
          />
        </section>
      ))}

      <MoneyReceivedSection money={money} locale={locale} monthName={monthName} />

      <CancellationReasonsSection reasons={reasons} locale={locale} />

      <section aria-labelledby="report-definitions" className="grid gap-2 text-sm">
        <h2 id="report-definitions" className="text-lg font-semibold">
          {t("definitions.title")}
        </h2>
        <ul className="grid list-disc gap-1 ps-5 text-muted-foreground">
          <li>{t("definitions.orders")}</li>
          <li>{t("definitions.coins", { rate: formatEuros(100, locale) })}</li>
          <li>{t("definitions.bought", { rate: formatEuros(100, locale) })}</li>
          <li>{t("definitions.cash")}</li>
          <li>{t("definitions.types")}</li>
          <li>{t("definitions.months")}</li>
        </ul>
      </section>
    </main>
  );
}
