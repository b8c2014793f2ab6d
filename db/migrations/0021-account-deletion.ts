import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// A customer's request to delete their account (ADR 19, docs/security.md): pending until an admin
// completes it or the customer cancels it. Rows are kept after either, as the record of what was asked
// and done; the account itself is anonymised on completion, not removed (the ledger, orders and services
// keep pointing at it).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("account_deletion_requests")
    .addColumn("id", t.autoId, id)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    // pending, cancelled, completed
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    // What the account still held when the request was made, for the admin who completes it.
    .addColumn("active_services", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("pending_orders", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("balance_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("requested_at", t.timestamp, (c) => c.notNull())
    .addColumn("decided_at", t.timestamp)
    .addColumn("decided_by", "text", (c) => c.references("users.id"))
    .execute();
  // At most one pending request per account, whatever races: the second insert fails on this index.
  // It also serves the clients list's "deletion requested" badge and filter (a seek per listed user).
  await db.schema
    .createIndex("account_deletion_requests_pending_idx")
    .on("account_deletion_requests")
    .column("user_id")
    .unique()
    .where(sql.ref("status"), "=", "pending")
    .execute();
  await db.schema
    .createIndex("account_deletion_requests_user_idx")
    .on("account_deletion_requests")
    .columns(["user_id", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_deletion_requests").execute();
}
