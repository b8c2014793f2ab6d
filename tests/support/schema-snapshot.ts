import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";

/** Every row of every table, as sorted short hashes, table by table. */
export type SchemaSnapshot = Record<string, string[]>;

function stable(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(",")}}`;
  }
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? String(v) : v));
}

/**
 * The tables of the database as it is (Kysely's introspection of SQLite's or PostgreSQL's catalogue, not
 * a list kept by hand), without Kysely's own migration tables: a table added by a later migration is in
 * it the day it exists.
 */
export async function schemaTables(db: Kysely<Database>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables
    .filter((table) => !table.isView)
    .map((table) => table.name)
    .sort();
}

/** Every row of every table but `skip`, hashed, so that a difference names its table. */
export async function schemaSnapshot(
  db: Kysely<Database>,
  options: { skip?: readonly string[] } = {},
): Promise<SchemaSnapshot> {
  const result: SchemaSnapshot = {};
  for (const table of await schemaTables(db)) {
    if (options.skip?.includes(table)) continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
      db,
    );
    result[table] = rows
      .map((row) => createHash("sha1").update(stable(row)).digest("hex").slice(0, 16))
      .sort();
  }
  return result;
}

/**
 * What changed from `before` to `after`, one line per table ("orders: 1 row added, 0 removed"); empty
 * when nothing did. In the `growOnly` tables rows may be added (a cache a read fills), but a row changed
 * or removed is still a change.
 */
export function snapshotChanges(
  before: SchemaSnapshot,
  after: SchemaSnapshot,
  options: { growOnly?: readonly string[] } = {},
): string[] {
  const changes: string[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[table];
    const now = after[table];
    if (!was || !now) {
      changes.push(`${table}: table ${was ? "gone" : "new"}`);
      continue;
    }
    const count = (rows: string[]) =>
      rows.reduce((map, row) => map.set(row, (map.get(row) ?? 0) + 1), new Map<string, number>());
    const [a, b] = [count(was), count(now)];
    let added = 0;
    let removed = 0;
    for (const [row, n] of b) added += Math.max(0, n - (a.get(row) ?? 0));
    for (const [row, n] of a) removed += Math.max(0, n - (b.get(row) ?? 0));
    if (removed === 0 && (added === 0 || options.growOnly?.includes(table))) continue;
    changes.push(`${table}: ${added} row(s) added, ${removed} removed or changed`);
  }
  return changes;
}
