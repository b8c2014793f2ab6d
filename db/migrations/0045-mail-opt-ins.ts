import type { ColumnDefinitionBuilder, Kysely } from "kysely";
import { columnTypes } from "./column-types";

// The staff's messages an admin receives only when they asked for them (docs/mail.md): a customer's
// reply to a ticket. Off by default, so a row is a choice to receive, the reverse of `mail_opt_outs`.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("mail_opt_ins")
    // An id like every table's, which copy-database orders by (and moves PostgreSQL's sequence past).
    .addColumn("id", t.autoId, id)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("mail_opt_ins_user_kind", ["user_id", "kind"])
    .execute();
  // Who asked for a kind, read when its message is queued.
  await db.schema.createIndex("mail_opt_ins_kind_idx").on("mail_opt_ins").column("kind").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mail_opt_ins").execute();
}
