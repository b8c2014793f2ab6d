import type { Key, ReactNode } from "react";
import { cn } from "~/lib/utils";

/** One column of a DataTable: its header cell, then what each row shows in it. */
export interface Column<Row> {
  /** Tells the columns apart (React's key for the header and the cells). */
  id: string;
  /** The header cell's content. */
  header: ReactNode;
  /** Classes added to the header cell (e.g. `md:text-end` for figures). */
  headerClassName?: string;
  /** The header cell's aria-sort, for a list sorted by this column. */
  sort?: "ascending" | "descending";
  /** The cell's content for a row. */
  cell: (row: Row) => ReactNode;
  /** Classes added to the cell, the same for every row or chosen per row. */
  className?: string | ((row: Row) => string);
  /** The cell's text direction (`phone: "scroll"` tables), e.g. "ltr" for amounts. */
  dir?: "ltr" | "rtl" | "auto";
  /** Phone cards: the column's name shown above the value (phones only). */
  label?: string;
  /** Phone cards: the cell spans the card's two columns. */
  wide?: boolean;
  /**
   * Phone cards: whether the row has something in this column; when it has not, the cell is an empty
   * one that exists from 768 px on only, so the card shows no blank space.
   */
  present?: (row: Row) => boolean;
}

export interface DataTableProps<Row> {
  /** The table's accessible name (a visually hidden caption). */
  caption?: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  /**
   * What the table becomes below 768 px: "cards" (each row a card, each cell with its column's name;
   * nothing scrolls sideways at 375 px) or "scroll" (the table as it is, scrolling sideways).
   */
  phone?: "cards" | "scroll";
  /** Classes on each row (with "cards", they can change the card's grid, e.g. `grid-cols-3`). */
  rowClassName?: string;
}

/** The classes of each part of the table, for each look it takes on a phone. */
const LOOKS = {
  cards: {
    wrapper: "md:overflow-x-auto md:rounded-lg md:border md:bg-background",
    table: "block w-full text-sm md:table",
    head: "hidden bg-muted text-xs text-muted-foreground uppercase md:table-header-group",
    body: "grid gap-3 md:table-row-group md:divide-y",
    row: "grid grid-cols-2 gap-x-3 gap-y-2 rounded-lg border bg-background p-3 align-top md:table-row md:rounded-none md:border-0 md:p-0",
    // On a phone a long email wraps anywhere rather than pushing the card wider than the screen.
    cell: "grid min-w-0 content-start gap-1 wrap-anywhere md:table-cell md:px-3 md:py-2 md:align-top md:wrap-break-word",
  },
  scroll: {
    wrapper: "overflow-x-auto rounded-lg border bg-background",
    table: "w-full min-w-[40rem] text-sm",
    head: "bg-muted text-start text-xs uppercase text-muted-foreground",
    body: "divide-y",
    row: undefined,
    cell: "px-3 py-2",
  },
} as const;

/** A table described by its columns: the head and every row come from the same definitions. */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  phone = "cards",
  rowClassName,
}: DataTableProps<Row>) {
  const look = LOOKS[phone];
  const cards = phone === "cards";
  return (
    <div className={look.wrapper}>
      <table className={look.table}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className={look.head}>
          <tr>
            {columns.map((column) => (
              <th
                key={column.id}
                scope="col"
                className={cn("px-3 py-2 text-start font-semibold", column.headerClassName)}
                aria-sort={column.sort}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={look.body}>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={cn(look.row, rowClassName) || undefined}>
              {columns.map((column) =>
                cards && column.present && !column.present(row) ? (
                  <td key={column.id} className="hidden md:table-cell" />
                ) : (
                  <td
                    key={column.id}
                    className={cn(
                      look.cell,
                      cards && column.wide && "col-span-2",
                      typeof column.className === "function"
                        ? column.className(row)
                        : column.className,
                    )}
                    dir={column.dir}
                  >
                    {cards && column.label ? (
                      <span className="text-xs text-muted-foreground md:hidden">
                        {column.label}
                      </span>
                    ) : null}
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A cell's value with a smaller, muted line under it: a customer and their email, a service and its
 * server, an order and its date. `dir` is the note's direction ("ltr" for an email).
 */
export function CellWithNote({
  value,
  note,
  dir,
}: {
  value: ReactNode;
  note: ReactNode;
  dir?: "ltr" | "auto";
}) {
  return (
    <>
      {value}
      <div className="text-xs text-muted-foreground" dir={dir}>
        {note}
      </div>
    </>
  );
}

/**
 * A column of moments (when it happened, when it ends): each a <time> written by `format`, kept on one
 * line from 768 px, with `name` as its header and above the value on a phone card.
 */
export function timeColumn<Row>({
  id,
  name,
  at,
  format,
  wide,
}: {
  id: string;
  name: string;
  /** The row's moment, an ISO 8601 string. */
  at: (row: Row) => string;
  format: Intl.DateTimeFormat;
  wide?: boolean;
}): Column<Row> {
  return {
    id,
    header: name,
    label: name,
    wide,
    className: "md:whitespace-nowrap",
    cell: (row) => <time dateTime={at(row)}>{format.format(new Date(at(row)))}</time>,
  };
}

/** The usual `rowKey`: a row's own `id`. */
export function byId(row: { id: Key }): Key {
  return row.id;
}
