import { PostgresAdapter, type Kysely } from "kysely";

/** Whether this Kysely instance (or transaction) talks to PostgreSQL rather than SQLite. */
export function isPostgres(db: Kysely<unknown> | { getExecutor: Kysely<unknown>["getExecutor"] }) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
