import type { Kysely } from "kysely";

// /admin/reports reads two date ranges, each narrowed by a list of values first: orders by status, the
// ledger by kind. An index on (value, created_at) answers both conditions at once; without one, SQLite
// picked the (status, id) and (kind, id) indexes and read every counted order or ledger row of those
// kinds ever written, whatever the dates.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("orders_status_created_idx")
    .on("orders")
    .columns(["status", "created_at"])
    .execute();
  await db.schema
    .createIndex("coin_ledger_kind_created_idx")
    .on("coin_ledger")
    .columns(["kind", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("coin_ledger_kind_created_idx").execute();
  await db.schema.dropIndex("orders_status_created_idx").execute();
}
