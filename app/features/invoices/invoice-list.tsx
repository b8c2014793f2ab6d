import { DataTable, timeColumn, type Column } from "~/components/data-table/data-table";
import { amountColumn, badgeColumn, column } from "~/components/data-table/column-presets";
import { Pager } from "~/components/data-table/pager";
import { TitledCard } from "~/components/ui/card";
import { CodeLink } from "~/components/ui/code-link";
import {
  DOCUMENT_KIND_LABELS,
  documentStateLabel,
  documentPath,
  type DocumentState,
  type DocumentSummary,
} from "~/domain/invoices/invoices";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDate } from "~/lib/intl-format";
import { formatEuros } from "~/lib/money";

/** A document's state as a badge: paid green, credited grey. */
export function stateTone(state: DocumentState) {
  return state === "paid" ? ("green" as const) : ("grey" as const);
}

/**
 * The billing tab's invoices, receipts and credit notes, newest first, each opening as its
 * page; paged on its own (`href(page)`), beside the coin history and the orders.
 */
export function InvoiceList({
  documents,
  page,
  hasMore,
  href,
  locale,
}: {
  documents: DocumentSummary[];
  page: number;
  hasMore: boolean;
  href: (page: number) => string;
  locale: string;
}) {
  const { t } = useTranslation("invoices");
  const date = mediumDate(locale);
  const columns: Column<DocumentSummary>[] = [
    column("number", t("list.number"), (doc) => (
      <CodeLink to={documentPath(doc.number)}>{doc.number}</CodeLink>
    )),
    column("kind", t("list.kind"), (doc) => t(DOCUMENT_KIND_LABELS[doc.kind])),
    timeColumn({
      id: "date",
      name: t("list.date"),
      at: (doc) => doc.issuedAt,
      format: date,
    }),
    amountColumn("total", t("list.total"), (doc) => formatEuros(doc.totalCents, locale)),
    badgeColumn(
      "state",
      t("list.state"),
      (doc) => ({
        tone: stateTone(doc.state),
        text: t(documentStateLabel(doc.kind, doc.state)),
      }),
      { label: true },
    ),
  ];
  return (
    <TitledCard
      title={t("list.title")}
      empty={documents.length === 0 && page === 1 ? t("list.empty") : undefined}
    >
      {documents.length > 0 ? (
        <DataTable
          caption={t("list.title")}
          rows={documents}
          rowKey={(doc) => doc.id}
          columns={columns}
        />
      ) : null}
      <Pager
        page={page}
        hasMore={hasMore}
        href={href}
        labels={{ previous: t("list.previous"), next: t("list.next") }}
      />
    </TitledCard>
  );
}
