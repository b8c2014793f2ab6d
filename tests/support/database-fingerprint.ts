import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { TABLES_IN_ORDER } from "~/db/copy-database.server";
import type { Database } from "~/db/schema";

export type Fingerprint = Record<string, string>;

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
 * The content of every table (row count and a hash of every row), table by table, so that a comparison
 * names the table that changed. Covers every table the database copy knows (TABLES_IN_ORDER), so a table
 * added later is covered too. `skip` leaves out tables a request may change by design (login attempts are
 * recorded for refused logins; sessions are created and ended by logging in and out).
 */
export async function databaseFingerprint(
  db: Kysely<Database>,
  options: { skip?: (keyof Database)[] } = {},
): Promise<Fingerprint> {
  const result: Fingerprint = {};
  for (const table of TABLES_IN_ORDER) {
    if (options.skip?.includes(table)) continue;
    const rows = await db.selectFrom(table).selectAll().execute();
    const lines = rows.map(stable).sort();
    const hash = createHash("sha1");
    for (const line of lines) hash.update(line).update("\n");
    result[table] = `${rows.length} rows, ${hash.digest("hex").slice(0, 12)}`;
  }
  return result;
}
