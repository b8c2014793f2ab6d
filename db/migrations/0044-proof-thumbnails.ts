import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Previews of image proofs (docs/payments.md#proof-files): the admins' queue showed each proof image
// whole, megabytes a file, where it draws 80 pixels high. Each image proof gets a small WebP of its own,
// made with the upload and served to the same people as the file.
//
// - A table of its own rather than columns of `top_up_proofs`: on SQLite a column after a file's bytes
//   is reached through every page of those bytes, so a preview beside its file would cost reading the file.
// - `proof_id` is its file's; the retention deletes the preview with its file.
// - The files stored before this migration get theirs from the worker: one job is queued here when
//   there are any (`payments.proof-thumbnails`, which queues its next run while files are left).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("top_up_proof_thumbnails")
    .addColumn("proof_id", "integer", (c) => c.primaryKey().references("top_up_proofs.id"))
    .addColumn("bytes", t.blob, (c) => c.notNull())
    .addColumn("byte_size", "integer", (c) => c.notNull().check(sql`byte_size > 0`))
    .addColumn("width", "integer", (c) => c.notNull().check(sql`width > 0`))
    .addColumn("height", "integer", (c) => c.notNull().check(sql`height > 0`))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  const now = new Date().toISOString();
  await sql`
    insert into jobs (type, payload, state, run_at, attempts, max_attempts, unique_key, created_at, updated_at)
    select 'payments.proof-thumbnails', '{}', 'queued', ${now}, 0, 5, 'payments.proof-thumbnails', ${now}, ${now}
    where exists (select 1 from top_up_proofs where content_type <> 'application/pdf')
      and not exists (
        select 1 from jobs
        where unique_key = 'payments.proof-thumbnails' and state in ('queued', 'running', 'failed')
      )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("top_up_proof_thumbnails").execute();
}
