import { sql } from "kysely";
import type { Tx } from "~/db/transaction";

/**
 * Locks one account's row for the rest of the transaction with an UPDATE that changes nothing (the row
 * lock on PostgreSQL, the write lock on SQLite), so a concurrent change to the same account waits, then
 * reads what this one wrote.
 */
export async function lockUser(trx: Tx, userId: string): Promise<void> {
  await trx
    .updateTable("users")
    .set({ updated_at: sql`updated_at` })
    .where("id", "=", userId)
    .execute();
}
