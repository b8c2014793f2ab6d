import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// The notifications a provider's webhook refuses before anything is kept (docs/online-payments.md):
// a body over the size limit (413, never read past the limit, so no body and no event id) and a
// replay of an event already had (200, nothing new kept). Each is counted on one row per provider,
// reason and key, so a flood adds to a count instead of adding rows: the key is the replayed event's
// id, or "" for the oversized bodies of a provider (which carry nothing that could tell them apart).
//
// A table of its own rather than two more outcomes of `provider_notifications`: those rows keep a body
// (NOT NULL) and an event id unique per provider, neither of which an oversized body has, and widening
// that table's CHECK on SQLite means rebuilding it; a new table is the same statement on both dialects.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("provider_notification_refusals")
    .addColumn("id", t.autoId, id)
    .addColumn("provider", "text", (c) =>
      c.notNull().check(sql`provider in ('paypal', 'youcanpay')`),
    )
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('tooLarge', 'replay')`))
    .addColumn("key", "text", (c) => c.notNull())
    // The size (bytes) the last oversized body declared; a streamed one, which declares none, keeps it.
    .addColumn("bytes", "integer")
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("first_seen_at", t.timestamp, (c) => c.notNull())
    .addColumn("last_seen_at", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("provider_notification_refusals_key", ["provider", "reason", "key"])
    .execute();
  // The admin's list, newest first.
  await db.schema
    .createIndex("provider_notification_refusals_seen_idx")
    .on("provider_notification_refusals")
    .column("last_seen_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("provider_notification_refusals").execute();
}
