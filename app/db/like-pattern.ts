import { sql, type RawBuilder } from "kysely";

/** A LIKE pattern that matches `text` anywhere, with LIKE's own wildcards in it escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A condition: one of `columns` contains `text`, LIKE's wildcards in it taken literally. The columns are
 * SQL written in the code (`"users.email"`, `"lower(users.name)"`), never input; several are or'ed.
 */
export function containsAny(columns: readonly string[], text: string): RawBuilder<boolean> {
  const pattern = containsPattern(text);
  const each = columns.map((column) => sql`${sql.raw(column)} like ${pattern} escape '\\'`);
  return sql<boolean>`(${sql.join(each, sql` or `)})`;
}
