import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Files with tickets and notes only staff read (docs/self-service.md, ADR 60):
//
// - `ticket_files`: the screenshots, logs and PDFs sent with a ticket's message, read as the top-ups'
//   proofs are (type from the bytes, images written again without their metadata). The bytes live in the
//   database, as the proofs' do: a backup and a restore carry them with the ticket.
// - `bytes` is the last column: on SQLite a column after a file's bytes is reached through every page of
//   those bytes, so the thread's list (name, type, size) never reads them.
// - The retention purge empties `bytes` and sets `removed_at`: the row stays, so the message still says
//   a file was there ("file removed"); a CHECK keeps the two together.
// - `uploader_id` is who sent it (the customer or a member of the staff); `ticket_id` is the message's
//   ticket, kept on the file so that serving it checks one row.
// - `ticket_messages.internal`: a note the staff write for each other, never shown to the customer
//   (only a staff message may be one).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .alterTable("ticket_messages")
    .addColumn("internal", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`internal in (0, 1) and (internal = 0 or is_staff = 1)`),
    )
    .execute();
  await db.schema
    .createTable("ticket_files")
    .addColumn("id", t.autoId, id)
    .addColumn("ticket_id", "integer", (c) => c.notNull().references("tickets.id"))
    .addColumn("message_id", "integer", (c) => c.notNull().references("ticket_messages.id"))
    .addColumn("uploader_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("content_type", "text", (c) =>
      c
        .notNull()
        .check(
          sql`content_type in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf', 'text/plain')`,
        ),
    )
    .addColumn("byte_size", "integer", (c) => c.notNull().check(sql`byte_size > 0`))
    .addColumn("sha256", "text", (c) => c.notNull().check(sql`length(sha256) = 64`))
    .addColumn("file_name", "text", (c) => c.notNull().check(sql`length(file_name) > 0`))
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("removed_at", t.timestamp)
    .addColumn("bytes", t.blob)
    .addCheckConstraint(
      "ticket_files_removed_or_kept",
      sql`(removed_at is null and bytes is not null) or (removed_at is not null and bytes is null)`,
    )
    .execute();
  await db.schema
    .createIndex("ticket_files_message_idx")
    .on("ticket_files")
    .columns(["message_id", "id"])
    .execute();
  await db.schema
    .createIndex("ticket_files_ticket_idx")
    .on("ticket_files")
    .columns(["ticket_id", "id"])
    .execute();
  // The retention purge's scan: the files still kept, oldest first.
  await db.schema
    .createIndex("ticket_files_kept_idx")
    .on("ticket_files")
    .columns(["created_at", "id"])
    .where(sql.ref("removed_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("ticket_files").execute();
  await db.schema.alterTable("ticket_messages").dropColumn("internal").execute();
}
