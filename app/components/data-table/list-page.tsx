import type { ReactNode } from "react";
import { DataTable, type DataTableProps } from "./data-table";
import { Pager, type PagerProps } from "./pager";

/**
 * A list page: its heading, its filters (a FilterBar: they live in the URL), what the page has to say
 * (`children`: messages, counts), then the table or, when no row is there, the `empty` text, a footer
 * and the pager.
 */
export function ListPage<Row>({
  header,
  filters,
  children,
  table,
  empty,
  footer,
  pager,
  className,
}: {
  header: ReactNode;
  filters?: ReactNode;
  children?: ReactNode;
  table: DataTableProps<Row>;
  /** Shown instead of the table when there is no row. */
  empty: ReactNode;
  footer?: ReactNode;
  pager?: PagerProps;
  /** The page's `<main>` classes, when not the usual grid. */
  className?: string;
}) {
  return (
    <main className={className ?? "grid min-w-0 gap-4"}>
      {header}
      {filters}
      {children}
      <ListTable table={table} empty={empty} />
      {footer}
      {pager ? <Pager {...pager} /> : null}
    </main>
  );
}

/** The table, or the `empty` text when there is no row. */
export function ListTable<Row>({ table, empty }: { table: DataTableProps<Row>; empty: ReactNode }) {
  return table.rows.length === 0 ? (
    <p className="text-muted-foreground">{empty}</p>
  ) : (
    <DataTable {...table} />
  );
}
