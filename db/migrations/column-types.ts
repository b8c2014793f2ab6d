import { PostgresAdapter, type Kysely } from "kysely";

// Frozen together with the migrations that use it: changing a type here would rewrite history.
export function columnTypes(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    postgres,
    /** ISO-8601 text on SQLite (sortable), timestamptz on PostgreSQL. */
    timestamp: postgres ? ("timestamptz" as const) : ("text" as const),
    boolean: postgres ? ("boolean" as const) : ("integer" as const),
    autoId: postgres ? ("bigserial" as const) : ("integer" as const),
    /** Bytes as they are (a file): bytea on PostgreSQL, blob on SQLite; both read back as a Buffer. */
    blob: postgres ? ("bytea" as const) : ("blob" as const),
  };
}
