import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Proof files of top-up requests (issue 26, docs/payments.md#proof-files): the images and PDFs a customer
// attaches when they say they have paid, at most three a request (the domain counts them).
//
// - The bytes live in the database, not on disk: backups, a restore, the SQLite-to-PostgreSQL copy and a
//   second machine all carry them with the request they prove.
// - `bytes` are what is served: an image as re-encoded (metadata stripped), a PDF as sent. `sha256` is of
//   the bytes as uploaded, so the same file sent again is found whatever the re-encoding gives
//   (`top_up_proofs_sha256_idx`: the admin's queue flags it).
// - `file_name` is the sent name made safe, with the extension of the type its content has.
// - `user_id` is the request's owner, kept on the file so that serving it checks one row.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("top_up_proofs")
    .addColumn("id", t.autoId, id)
    .addColumn("top_up_request_id", "integer", (c) => c.notNull().references("top_up_requests.id"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("content_type", "text", (c) =>
      c
        .notNull()
        .check(sql`content_type in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')`),
    )
    .addColumn("bytes", t.blob, (c) => c.notNull())
    .addColumn("byte_size", "integer", (c) => c.notNull().check(sql`byte_size > 0`))
    .addColumn("sha256", "text", (c) => c.notNull().check(sql`length(sha256) = 64`))
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("top_up_proofs_request_idx")
    .on("top_up_proofs")
    .columns(["top_up_request_id", "id"])
    .execute();
  await db.schema
    .createIndex("top_up_proofs_sha256_idx")
    .on("top_up_proofs")
    .column("sha256")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("top_up_proofs").execute();
}
