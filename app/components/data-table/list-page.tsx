import type { ComponentProps, ReactNode } from "react";
import { PageHeading } from "~/components/ui/page-heading";
import { DataTable, type DataTableProps } from "./data-table";
import { FilterBar, type FilterBarProps, type ListFilters } from "./filter-bar";
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

/**
 * A ListPage whose filters are a FilterBar over `listFilters`: what the page wrote out each time from
 * its filters is drawn here from them. The heading's title names the table too; while a filter is on the
 * page says `noMatch` (when it has one) instead of `empty` and the `matching` count after its messages;
 * the pager goes through the query's pages with the filters kept (`filters.href`).
 */
export function FilteredListPage<Row, Query extends { page: number }>({
  heading,
  filters,
  filterBar,
  children,
  matching,
  table,
  empty,
  noMatch,
  hasMore,
}: {
  heading: ComponentProps<typeof PageHeading>;
  filters: ListFilters<Query>;
  /** The bar's name, words and grid. */
  filterBar: Omit<FilterBarProps<Query>, "filters">;
  /** What the page has to say above the table (the outcome of the last action, an opened item). */
  children?: ReactNode;
  /** How many rows match the filters, said while one is on. */
  matching?: ReactNode;
  table: Omit<DataTableProps<Row>, "caption">;
  empty: ReactNode;
  /** Shown instead of `empty` while a filter is on. */
  noMatch?: ReactNode;
  hasMore: boolean;
}) {
  const { filtered } = filters;
  return (
    <ListPage
      header={<PageHeading {...heading} />}
      filters={<FilterBar filters={filters} {...filterBar} />}
      table={{ caption: heading.title, ...table }}
      empty={filtered && noMatch !== undefined ? noMatch : empty}
      pager={{ page: filters.query.page, hasMore, href: filters.href }}
    >
      {children}
      {filtered && matching !== undefined ? (
        <p className="text-sm text-muted-foreground">{matching}</p>
      ) : null}
    </ListPage>
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
