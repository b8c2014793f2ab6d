import { Link } from "~/components/ui/link";
import { byId, timeColumn, type Column } from "~/components/data-table/data-table";
import { amountColumn, badgeColumn, column } from "~/components/data-table/column-presets";
import { listFilters } from "~/components/data-table/filter-bar";
import { FilteredListPage } from "~/components/data-table/list-page";
import { clientColumn } from "~/components/ui/client-link";
import { choicesOf } from "~/components/ui/form-card";
import {
  DOCUMENT_KIND_LABELS,
  DOCUMENT_KINDS,
  DOCUMENT_STATE_LABELS,
  documentStateLabel,
  DOCUMENT_STATES,
  documentPath,
  type DocumentSummary,
} from "~/domain/invoices/invoices";
import type { AdminInvoicesQuery } from "~/domain/invoices/invoices.schemas";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDateTime } from "~/lib/intl-format";
import { formatEuros } from "~/lib/money";

/**
 * /admin/invoices: every numbered document, newest first, filtered by kind and state and
 * searched by number, email or name, each linked to its page.
 */
export function AdminInvoicesPage({
  documents,
  hasMore,
  query,
  locale,
}: {
  documents: DocumentSummary[];
  hasMore: boolean;
  query: AdminInvoicesQuery;
  locale: string;
}) {
  const { t } = useTranslation("invoices");
  const { t: tAdmin } = useTranslation("admin");
  const date = mediumDateTime(locale);
  const filters = listFilters(query, "invoices", [
    {
      kind: "search",
      name: "q",
      label: t("admin.search"),
      placeholder: t("admin.searchPlaceholder"),
      dir: "ltr",
      maxLength: 254,
    },
    {
      kind: "select",
      name: "kind",
      label: t("admin.kind"),
      anyLabel: t("admin.anyKind"),
      options: choicesOf(DOCUMENT_KINDS, (kind) => t(DOCUMENT_KIND_LABELS[kind])),
    },
    {
      kind: "select",
      name: "state",
      label: t("admin.state"),
      anyLabel: t("admin.anyState"),
      options: choicesOf(DOCUMENT_STATES, (state) => t(DOCUMENT_STATE_LABELS[state])),
    },
  ]);
  const columns: Column<DocumentSummary>[] = [
    column("number", t("list.number"), (doc) => (
      <>
        <Link
          to={documentPath(doc.number)}
          className="font-mono text-primary hover:underline"
          dir="ltr"
        >
          {doc.number}
        </Link>
        <span className="block text-xs text-muted-foreground">
          {t(DOCUMENT_KIND_LABELS[doc.kind])}
        </span>
      </>
    )),
    clientColumn(t("admin.customer"), (doc) => ({
      userId: doc.userId ?? "",
      name: doc.userName ?? "",
      email: doc.userEmail ?? "",
    })),
    timeColumn({ id: "date", name: t("list.date"), at: (doc) => doc.issuedAt, format: date }),
    amountColumn("vat", t("admin.vat"), (doc) => formatEuros(doc.vatCents, locale)),
    amountColumn("total", t("list.total"), (doc) => formatEuros(doc.totalCents, locale)),
    badgeColumn(
      "state",
      t("list.state"),
      (doc) => ({
        tone: doc.state === "paid" ? "green" : "grey",
        text: t(documentStateLabel(doc.kind, doc.state)),
      }),
      { label: true },
    ),
  ];
  return (
    <FilteredListPage
      heading={{ title: tAdmin("nav.invoices"), intro: t("admin.intro") }}
      filters={filters}
      filterBar={{
        label: t("admin.filter"),
        wideColumns: "lg:grid-cols-[minmax(0,2fr)_repeat(2,minmax(0,1fr))_auto]",
      }}
      table={{ columns, rows: documents, rowKey: byId }}
      empty={t("admin.empty")}
      noMatch={t("admin.noMatch")}
      hasMore={hasMore}
    />
  );
}
