import { column } from "~/components/data-table/column-presets";
import { type Column } from "~/components/data-table/data-table";
import { ListTable } from "~/components/data-table/list-page";
import { formatMethodAmount } from "~/domain/payments/payment-methods";
import type { CashReceived, MoneyReceived } from "~/domain/reports/reports";
import { useTranslation } from "~/i18n/use-translation";
import { numberFormat } from "~/lib/intl-format";

type Row = Omit<CashReceived, "month"> & { key: string; month: string | null };

/** A figure of the table: monospace, left to right, at the end of its column from 768 px. */
function figure(id: string, name: string, value: (row: Row) => string): Column<Row> {
  return {
    ...column(id, name, (row) => (
      <span className="font-mono md:whitespace-nowrap" data-testid={`cash-${row.key}-${id}`}>
        <span dir="ltr">{value(row)}</span>
      </span>
    )),
    className: "md:text-end",
    headerClassName: "md:text-end",
  };
}

/**
 * /admin/reports' money received: a row per month and payment method where a top-up was approved, the
 * amount in the method's own currency, then each method's total over the 12 months.
 */
export function MoneyReceivedSection({
  money,
  locale,
  monthName,
}: {
  money: MoneyReceived;
  locale: string;
  monthName: (month: string) => string;
}) {
  const { t } = useTranslation("admin-reports");
  const count = numberFormat(locale);
  const rows: Row[] = [
    ...money.cash.map((row) => ({ ...row, key: `${row.month}-${row.methodId}-${row.currency}` })),
    ...money.cashTotals.map((row) => ({
      ...row,
      month: null,
      key: `total-${row.methodId}-${row.currency}`,
    })),
  ];
  const columns: Column<Row>[] = [
    {
      ...column("month", t("month"), (row) => (
        <span className={row.month === null ? "font-bold" : "font-semibold md:font-normal"}>
          {row.month === null ? t("total12") : monthName(row.month)}
        </span>
      )),
      wide: true,
      // A card's title on a phone, as in the monthly tables: no label over it.
      label: undefined,
    },
    column("method", t("money.method"), (row) => <span dir="auto">{row.methodName}</span>),
    figure("received", t("money.received"), (row) =>
      formatMethodAmount(row.totalMinor, row.currency, locale),
    ),
    figure("requests", t("money.requests"), (row) => count.format(row.requests)),
    figure("coins", t("money.coins"), (row) => count.format(row.coins)),
  ];
  return (
    <section aria-labelledby="report-money" className="grid min-w-0 gap-3">
      <h2 id="report-money" className="text-lg font-semibold">
        {t("money.title")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("money.intro")}</p>
      <ListTable
        table={{
          caption: t("money.table"),
          columns,
          rows,
          rowKey: (row) => row.key,
        }}
        empty={t("money.empty")}
      />
    </section>
  );
}
