import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// The per-address form limit's count (0017) serves windows longer than a minute too: an account's
// tickets and replies are counted in it over ten minutes and over a day. Pruning by the slot's start
// alone would delete a day's slots a minute after they began, so each row now says until when a post
// counts it (`counted_until`: its slot's start plus seven slots), and pruning deletes by that. Rows
// written before this migration were all one-minute windows: they count until 70 seconds after their
// slot began. Nullable only because SQLite adds a column to existing rows that way; every row has one.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("form_rate_windows").addColumn("counted_until", t.timestamp).execute();
  if (t.postgres)
    await sql`update form_rate_windows set counted_until = window_start + interval '70 seconds'`.execute(
      db,
    );
  // ISO-8601 text as the code writes it ("2026-11-23T10:16:50.000Z").
  else
    await sql`update form_rate_windows set counted_until = strftime('%Y-%m-%dT%H:%M:%fZ', window_start, '+70 seconds')`.execute(
      db,
    );
  await db.schema.dropIndex("form_rate_windows_start_idx").execute();
  await db.schema
    .createIndex("form_rate_windows_counted_idx")
    .on("form_rate_windows")
    .column("counted_until")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("form_rate_windows_counted_idx").execute();
  await db.schema
    .createIndex("form_rate_windows_start_idx")
    .on("form_rate_windows")
    .column("window_start")
    .execute();
  await db.schema.alterTable("form_rate_windows").dropColumn("counted_until").execute();
}
