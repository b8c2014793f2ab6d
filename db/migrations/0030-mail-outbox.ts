import type { ColumnDefinitionBuilder, Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Outgoing mail (issue 25, docs/mail.md): every message is a row of the outbox, queued in the
// transaction of the event it tells of and sent by a job of the worker. `unique_key` (the event and the
// recipient) is unique for ever, unlike a job's key, so an event never mails the same person twice.
// The subject and both parts are written once, at the first attempt, with the Message-ID: a retry sends
// the very same message. `mail_opt_outs`: the kinds a customer turned off.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", t.autoId, id)
    .addColumn("unique_key", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    // The recipient's account (null once it is deleted); the address is kept as it was sent to.
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("params", "text", (c) => c.notNull().defaultTo("{}"))
    // queued, sent, failed (an attempt failed: the worker retries) or kept (no SMTP_URL).
    .addColumn("state", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("subject", "text")
    .addColumn("html", "text")
    .addColumn("text", "text")
    .addColumn("message_id", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addColumn("sent_at", t.timestamp)
    .execute();
  // /admin/mail lists the newest first, by state.
  await db.schema
    .createIndex("mail_outbox_state_idx")
    .on("mail_outbox")
    .columns(["state", "id"])
    .execute();

  // The kinds of mail a customer turned off (the dashboard's account tab); security mail is never here.
  await db.schema
    .createTable("mail_opt_outs")
    // An id like every table's, which copy-database orders by (and moves PostgreSQL's sequence past).
    .addColumn("id", t.autoId, id)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("mail_opt_outs_user_kind", ["user_id", "kind"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mail_opt_outs").execute();
  await db.schema.dropTable("mail_outbox").execute();
}
