import { sql, type Selectable, type SelectQueryBuilder } from "kysely";
import type { Database } from "./schema";
import type { Db, Tx } from "./transaction";

/**
 * `query` kept to one customer's rows (`userId`, on `table`'s `user_id`), or left to everyone's when no
 * customer is named: what a customer acts on is their own, what an admin acts on is anyone's. The column
 * is named with its table, since a join with another owned table (a ticket's service) has two.
 */
export function ofCustomer<TB extends keyof Database, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  table: NoInfer<TB> & OwnedTable,
  userId?: string,
): SelectQueryBuilder<Database, TB, O> {
  return userId === undefined
    ? query
    : query.where(sql<boolean>`${sql.id(table, "user_id")} = ${userId}`);
}

/**
 * How many rows `query` (`table` and its conditions, nothing selected yet) matches, one customer's
 * (`userId`) or everyone's: a query to run or to nest as a column.
 */
export function customerCount<TB extends keyof Database, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  table: NoInfer<TB> & OwnedTable,
  userId?: string,
) {
  const counted = query
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .$castTo<{ count: number }>();
  return ofCustomer(counted, table, userId);
}

/** The tables whose rows belong to one account, named by their `user_id`. */
type OwnedTable = TablesWith<{ user_id: string }>;

type TablesWith<Row> = {
  [T in keyof Database]: Selectable<Database[T]> extends Row ? T : never;
}[keyof Database];

/**
 * Whether row `id` of `table` is customer `userId`'s. Another customer's row answers false, as a missing
 * one does: whether it exists is never told.
 */
export async function isCustomersRow(
  db: Db | Tx,
  table: TablesWith<{ id: number; user_id: string }>,
  id: number,
  userId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom(table)
    .select("id")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** `table`'s rows, each joined with the account it belongs to (`users`, on the row's `user_id`). */
export function withOwner<T extends OwnedTable>(
  db: Db | Tx,
  table: T,
): SelectQueryBuilder<Database, T | "users", object> {
  // Kysely checks the join against every owned table at once; the result is typed for `table` alone.
  const owned: OwnedTable = table;
  return db.selectFrom(owned).innerJoin("users", "users.id", `${owned}.user_id`) as never;
}
