import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

// The per-address form limit counts posts here rather than in each server process's memory, so several
// processes (WEB_CONCURRENCY) or machines on one database share one count. One row per address, form
// and fixed window; the count goes up with one upsert, and windows that have ended are deleted.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("form_rate_windows")
    .addColumn("ip_address", "text", (c) => c.notNull())
    .addColumn("form", "text", (c) => c.notNull())
    .addColumn("window_start", t.timestamp, (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("form_rate_windows_pk", ["ip_address", "form", "window_start"])
    .execute();
  // Pruning deletes ended windows by time alone.
  await db.schema
    .createIndex("form_rate_windows_start_idx")
    .on("form_rate_windows")
    .column("window_start")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("form_rate_windows").execute();
}
