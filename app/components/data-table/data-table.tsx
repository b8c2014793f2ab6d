import type { Key, ReactNode } from "react";
import { cn } from "~/lib/utils";
import { Moment } from "~/components/ui/moment";

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
  /**
   * The direction of the cell's value (`phone: "scroll"` tables), e.g. "ltr" for amounts: it goes on a
   * span around the value, so a phone card's label keeps the page's direction.
   */
  dir?: "ltr" | "rtl" | "auto";
  /**
   * Phone cards: the column's name shown above the value (phones only). On a `phone: "scroll"` table a
   * column without one is labelled with its header when the header is a text.
   */
  label?: string;
  /** Phone cards: the cell spans the card's two columns. */
  wide?: boolean;
  /**
   * Phone cards: the cell comes first in its card, whatever its place in the row (a row's buttons, so
   * that they are in view without scrolling: `actionsColumn` sets it).
   */
  first?: boolean;
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
   * Below 768 px every table is a list of cards (each row a card, each cell with its column's name, the
   * row's buttons first): nothing scrolls sideways on a phone. From 768 px on it is a table: "cards"
   * (the default) a plain one, "scroll" a wide one (the queues, the customer's coin history) at least
   * 40rem wide that scrolls sideways inside its own box.
   */
  phone?: "cards" | "scroll";
  /** Classes on each row (with "cards", they can change the card's grid, e.g. `grid-cols-3`). */
  rowClassName?: string;
}

/**
 * The phone's cards, shared by both looks: each row a card of two columns, each cell a small grid (its
 * label over its value) that may not push the card wider than the screen (a long email wraps anywhere).
 */
const CARD = {
  head: "hidden bg-muted text-xs text-muted-foreground uppercase md:table-header-group",
  body: "grid gap-3 md:table-row-group md:divide-y",
  row: "grid grid-cols-2 gap-x-3 gap-y-2 rounded-lg border bg-background p-3 md:table-row md:rounded-none md:border-0 md:p-0",
  cell: "grid min-w-0 content-start gap-1 wrap-anywhere md:table-cell md:px-3 md:py-2",
} as const;

/**
 * The classes of each part of the table, from 768 px on. The box is `contain-inline-size`: however wide
 * its table, it asks its page for no width, so a wide table scrolls inside it and never widens the page
 * (the coin history made the billing tab 708 px wide on a 412 px phone).
 */
const LOOKS = {
  cards: {
    wrapper: "contain-inline-size md:overflow-x-auto md:rounded-lg md:border md:bg-background",
    table: "block w-full text-sm md:table",
    row: `${CARD.row} align-top`,
    cell: `${CARD.cell} md:align-top md:wrap-break-word`,
  },
  scroll: {
    wrapper: "contain-inline-size md:overflow-x-auto md:rounded-lg md:border md:bg-background",
    table: "block w-full text-sm md:table md:min-w-[40rem]",
    row: CARD.row,
    cell: `${CARD.cell} md:wrap-normal`,
  },
} as const;

/** What a phone card shows above a cell's value: its label, or on a scroll table a header that is text. */
function cardLabel<Row>(column: Column<Row>, phone: "cards" | "scroll") {
  if (column.label) return column.label;
  return phone === "scroll" && !column.first && typeof column.header === "string"
    ? column.header
    : undefined;
}

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
  return (
    <div className={look.wrapper}>
      <table className={look.table}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className={CARD.head}>
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
        <tbody className={CARD.body}>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={cn(look.row, rowClassName)}>
              {columns.map((column) => {
                if (column.present && !column.present(row))
                  return <td key={column.id} className="hidden md:table-cell" />;
                const label = cardLabel(column, phone);
                const value = column.cell(row);
                return (
                  <td
                    key={column.id}
                    className={cn(
                      look.cell,
                      column.wide && "col-span-2",
                      column.first && "order-first md:order-none",
                      typeof column.className === "function"
                        ? column.className(row)
                        : column.className,
                    )}
                  >
                    {label ? (
                      // In the page's font and weight, whatever the value's (a figure's monospace).
                      <span className="font-sans text-xs font-normal text-muted-foreground md:hidden">
                        {label}
                      </span>
                    ) : null}
                    {column.dir ? (
                      // On a card the span is a grid item: at the card's start, as wide as its value.
                      <span dir={column.dir} className="justify-self-start">
                        {value}
                      </span>
                    ) : (
                      value
                    )}
                  </td>
                );
              })}
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
    cell: (row) => <Moment at={at(row)} format={format} />,
  };
}

/** The usual `rowKey`: a row's own `id`. */
export function byId(row: { id: Key }): Key {
  return row.id;
}
