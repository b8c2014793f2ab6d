import type { ColumnType, Generated } from "kysely";

/**
 * Every timestamp is read back as an ISO-8601 string on both dialects: SQLite stores the text, and our
 * PostgreSQL pool parses timestamptz into the same form (see database.server.ts). Writes take a string.
 */
export type Timestamp = ColumnType<string, string, string>;
/** SQLite has no boolean type: our own flags are 0 or 1 on both dialects so code reads them one way. */
export type Flag = Generated<number>;
/** Set by the insert and never updated (a numbered document's amounts): Kysely refuses it in an update. */
export type WrittenOnce<T> = ColumnType<T, T, never>;
/** Never updated either, but the database's default fills it when the insert leaves it out. */
export type WrittenOnceOrDefault<T> = ColumnType<T, T | undefined, never>;

// A column with a database default is `Generated<T>` (Kysely's name for it): an insert may leave it out.
// A nullable column is plain `T | null`, as better-auth's are: Kysely lets an insert leave it out too.
