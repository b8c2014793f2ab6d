import { column } from "~/components/data-table/column-presets";
import { type Column } from "~/components/data-table/data-table";
import { ListTable } from "~/components/data-table/list-page";
import {
  CANCELLATION_REASON_LABELS,
  type CancellationReasonCount,
} from "~/domain/hosting-services/cancellation";
import { useTranslation } from "~/i18n/use-translation";
import { numberFormat } from "~/lib/intl-format";

/** A count of the table: monospace, at the end of its column from 768 px. */
function figure(
  id: string,
  name: string,
  value: (row: CancellationReasonCount) => number,
  format: (n: number) => string,
): Column<CancellationReasonCount> {
  return {
    ...column(id, name, (row) => (
      <span className="font-mono" data-testid={`reason-${row.reason}-${id}`}>
        {format(value(row))}
      </span>
    )),
    className: "md:text-end",
    headerClassName: "md:text-end",
  };
}

/**
 * /admin/reports' cancellation reasons: each reason of the list with how many customers gave it over the
 * report's months, at the end of the term and with a refund (docs/self-service.md).
 */
export function CancellationReasonsSection({
  reasons,
  locale,
}: {
  reasons: CancellationReasonCount[];
  locale: string;
}) {
  const { t } = useTranslation("admin-reports");
  const { t: tServices } = useTranslation("services");
  const count = numberFormat(locale);
  const columns: Column<CancellationReasonCount>[] = [
    {
      ...column("reason", t("reasons.reason"), (row) => (
        <span className="font-semibold md:font-normal">
          {tServices(CANCELLATION_REASON_LABELS[row.reason])}
        </span>
      )),
      wide: true,
      // A card's title on a phone: no label over it.
      label: undefined,
    },
    figure("endOfTerm", t("reasons.endOfTerm"), (row) => row.endOfTerm, count.format),
    figure("refund", t("reasons.refund"), (row) => row.refund, count.format),
    figure("total", t("reasons.total"), (row) => row.endOfTerm + row.refund, count.format),
  ];
  return (
    <section aria-labelledby="report-reasons" className="grid min-w-0 gap-3">
      <h2 id="report-reasons" className="text-lg font-semibold">
        {t("reasons.title")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("reasons.intro")}</p>
      <ListTable
        table={{ caption: t("reasons.table"), columns, rows: reasons, rowKey: (row) => row.reason }}
        empty={null}
      />
    </section>
  );
}
