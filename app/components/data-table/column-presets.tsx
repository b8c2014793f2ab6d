import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { formatCoins } from "~/lib/money";
import type { SortDirection } from "~/lib/sort-directions";
import { cn } from "~/lib/utils";
import { CellWithNote, type Column } from "./data-table";

/** What a preset leaves to the page: where the cell sits on a phone card and its extra classes. */
export type ColumnOptions<Row> = Pick<
  Column<Row>,
  "wide" | "present" | "className" | "headerClassName"
>;

/**
 * A column whose `name` is its header and, on a phone card, the label above each value: the usual
 * column of a `phone: "cards"` table.
 */
export function column<Row>(
  id: string,
  name: string,
  cell: (row: Row) => ReactNode,
  options: ColumnOptions<Row> = {},
): Column<Row> {
  return { id, header: name, label: name, cell, ...options };
}

/**
 * A column of a `phone: "scroll"` table whose cells are a value with a smaller, muted line under it
 * (`CellWithNote`): a service and its server, a product and the server it was ordered for. The note is
 * text people typed, so its direction is "auto" unless `dir` says otherwise.
 */
export function noteColumn<Row>(
  id: string,
  header: string,
  parts: (row: Row) => readonly [value: ReactNode, note: ReactNode],
  dir: "ltr" | "auto" = "auto",
): Column<Row> {
  return {
    id,
    header,
    cell: (row) => {
      const [value, note] = parts(row);
      return <CellWithNote value={value} note={note} dir={dir} />;
    },
  };
}

/**
 * The "customer" column of a `phone: "scroll"` queue (orders, services, tickets): the customer's name
 * with their email under it, written left to right.
 */
export function customerColumn<Row>(
  header: string,
  customer: (row: Row) => readonly [name: string, email: string],
): Column<Row> {
  return noteColumn("customer", header, customer, "ltr");
}

/**
 * A column of amounts on a phone-cards table: figures in a monospace font, right-aligned (end) and on
 * one line from 768 px, each written left to right. `className` adds classes per row (a red debit).
 */
export function amountColumn<Row>(
  id: string,
  name: string,
  amount: (row: Row) => string,
  className?: (row: Row) => string,
): Column<Row> {
  const figures = "font-mono md:text-end md:whitespace-nowrap";
  return {
    id,
    header: name,
    headerClassName: "md:text-end",
    label: name,
    className: className ? (row) => cn(figures, className(row)) : figures,
    cell: (row) => <span dir="ltr">{amount(row)}</span>,
  };
}

/** Coins a movement adds (+) or takes away (−), in the reader's figures. */
export function signedCoins(cents: number, locale: string): string {
  const text = formatCoins(Math.abs(cents), locale);
  return cents > 0 ? `+${text}` : cents < 0 ? `−${text}` : text;
}

/**
 * A coin ledger's two figures, as every list of movements shows them: the amount (signed, green when it
 * adds, red when it takes away) and the balance after it, under the names given.
 */
export function coinMovementColumns<Row extends { amountCents: number; balanceAfterCents: number }>(
  names: { amount: string; balance: string },
  locale: string,
): Column<Row>[] {
  return [
    amountColumn(
      "amount",
      names.amount,
      (entry) => signedCoins(entry.amountCents, locale),
      (entry) => (entry.amountCents > 0 ? "text-green-700" : "text-destructive"),
    ),
    amountColumn("balance", names.balance, (entry) => formatCoins(entry.balanceAfterCents, locale)),
  ];
}

type BadgeTone = NonNullable<ComponentProps<typeof Badge>["tone"]>;

/** What a badge column shows for a row: the badge's colour and its (translated) text. */
export interface BadgeOf {
  tone: BadgeTone;
  text: string;
}

/**
 * A column of badges (a status, a role, a priority). With `label: true` (a phone-cards table) the name
 * is also each card's label and the badge sits in a span, so the card's grid does not stretch it.
 */
export function badgeColumn<Row>(
  id: string,
  name: string,
  badge: (row: Row) => BadgeOf,
  { label = false }: { label?: boolean } = {},
): Column<Row> {
  const cell = (row: Row) => {
    const { tone, text } = badge(row);
    return <Badge tone={tone}>{text}</Badge>;
  };
  return label
    ? { id, header: name, label: name, cell: (row) => <span>{cell(row)}</span> }
    : { id, header: name, cell };
}

/**
 * The column of a row's buttons, with the id "actions". `hideName` keeps its name for screen readers
 * only (the header is then an `sr-only` span); `wide` gives the buttons a phone card's whole width. On a
 * phone the buttons come first in each card (`first`), so every admin list shows them without scrolling.
 */
export function actionsColumn<Row>(
  name: string,
  cell: (row: Row) => ReactNode,
  { hideName = false, wide }: { hideName?: boolean; wide?: boolean } = {},
): Column<Row> {
  return {
    id: "actions",
    header: hideName ? <span className="sr-only">{name}</span> : name,
    wide,
    first: true,
    cell,
  };
}

/**
 * A column the list can be sorted by: its header becomes a link to the list sorted by it (`href` of the
 * direction it would sort in), with an arrow and `aria-sort` while it is the sort. Clicking the sort
 * column again turns it round; another column starts in its `first` direction (A to Z for text, newest
 * or largest first otherwise).
 */
export function sortableColumn<Row>(
  column: Column<Row>,
  {
    active,
    dir,
    first,
    href,
  }: {
    active: boolean;
    dir: SortDirection;
    first: SortDirection;
    href: (dir: SortDirection) => string;
  },
): Column<Row> {
  const next = active ? (dir === "asc" ? "desc" : "asc") : first;
  return {
    ...column,
    sort: active ? (dir === "asc" ? "ascending" : "descending") : undefined,
    header: (
      <Link to={href(next)} className="inline-flex items-center gap-1 hover:text-foreground">
        {column.header}
        {active ? (
          dir === "asc" ? (
            <ArrowUpIcon className="size-3" aria-hidden />
          ) : (
            <ArrowDownIcon className="size-3" aria-hidden />
          )
        ) : null}
      </Link>
    ),
  };
}
