import type { Kysely, Selectable } from "kysely";
import type { AppServices } from "~/context.server";
import type { Database } from "~/db/schema";

/**
 * One column of the one row of `table` where `where[0]` equals `where[1]`, read straight from the
 * database: what a test checks a use-case wrote (a voucher's uses, a user's email). Throws when no row
 * matches, so a wrong id fails the test rather than reading as undefined.
 */
export async function readColumn<
  T extends keyof Database & string,
  C extends keyof Selectable<Database[T]> & string,
>(
  app: AppServices,
  table: T,
  column: C,
  where: [column: keyof Selectable<Database[T]> & string, value: string | number],
): Promise<Selectable<Database[T]>[C]> {
  // The table and columns are checked by the signature; Kysely cannot follow a generic table name.
  const db = app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const from: string = table;
  const selected: string = column;
  const by: string = where[0];
  const row = await db
    .selectFrom(from)
    .select(selected)
    .where(by, "=", where[1])
    .executeTakeFirstOrThrow();
  return row[column] as Selectable<Database[T]>[C];
}

type Table = keyof Database & string;
type Row<T extends Table> = Selectable<Database[T]>;
type Column<T extends Table> = keyof Row<T> & string;
type TableWithId = { [T in Table]: "id" extends Column<T> ? T : never }[Table];
/** What a row must hold: each column given equals its value (SQL `=`, so a null matches nothing). */
export type RowMatch<T extends Table> = { [K in Column<T>]?: Row<T>[K] };

/** The order rows come back in: by a column, or `"<column> desc"` for the largest first. */
export type RowOrder<T extends Table> = Column<T> | `${Column<T>} desc`;

function selectMatching<T extends Table>(
  db: Kysely<Database>,
  table: T,
  columns: readonly Column<T>[] | "*",
  where: RowMatch<T>,
  order: RowOrder<T> | undefined,
) {
  // As in readColumn: the names are checked by the signatures, which Kysely cannot follow generically.
  const from = (db as unknown as Kysely<Record<string, Record<string, unknown>>>).selectFrom(
    table as string,
  );
  let query = columns === "*" ? from.selectAll() : from.select(columns as readonly string[]);
  for (const [column, value] of Object.entries(where)) query = query.where(column, "=", value);
  if (!order) return query;
  const [by, direction] = order.split(" ") as [string, "desc" | undefined];
  return query.orderBy(by, direction ?? "asc");
}

/**
 * The rows of `table` that match `where`, with the columns named (`"*"`: all of them), in the order
 * asked (none by default): what a test counts or reads back after a use-case wrote it (the mail queued
 * for a user, the audit entries of a target). `db` is the database or transaction the test reads.
 */
export async function readRows<T extends Table, C extends Column<T> = Column<T>>(
  db: Kysely<Database>,
  table: T,
  columns: readonly C[] | "*",
  where: RowMatch<T>,
  order?: RowOrder<T>,
): Promise<Pick<Row<T>, C>[]> {
  return (await selectMatching(db, table, columns, where, order).execute()) as Pick<Row<T>, C>[];
}

/**
 * The one row of `table` that matches `where` (the first in the order asked, if several do); throws
 * when none does.
 */
export async function readRow<T extends Table, C extends Column<T> = Column<T>>(
  db: Kysely<Database>,
  table: T,
  columns: readonly C[] | "*",
  where: RowMatch<T>,
  order?: RowOrder<T>,
): Promise<Pick<Row<T>, C>> {
  const row = await selectMatching(db, table, columns, where, order).executeTakeFirstOrThrow();
  return row as Pick<Row<T>, C>;
}

/** The matching row written last (the highest id); throws when none matches. */
export function latestRow<T extends TableWithId, C extends Column<T> = Column<T>>(
  db: Kysely<Database>,
  table: T,
  columns: readonly C[] | "*",
  where: RowMatch<T>,
): Promise<Pick<Row<T>, C>> {
  return readRow(db, table, columns, where, "id desc" as RowOrder<T>);
}
