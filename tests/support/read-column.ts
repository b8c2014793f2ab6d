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
