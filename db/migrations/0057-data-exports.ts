import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// A customer's archive of their data (docs/self-service.md, ADR 61): asked for from the account tab,
// made by the worker, offered by a link for a few days, then its bytes deleted.
//
// - `state`: `queued` until the worker has made it (`ready`) or given up (`failed`); a ready one becomes
//   `expired` once its link has run out and the nightly job has deleted its bytes. At most one queued
//   per account (`data_exports_waiting_idx`: a second ask at the same moment fails on it).
// - `token_hash`: the SHA-256 of the link's token, set when it is ready; the token itself is never
//   stored (the link carries it, and the site derives it again from the auth secret to show it).
// - `archive`: the ZIP's bytes while it is ready, null otherwise (a CHECK each way). Last of the row:
//   on SQLite a column after a large value is reached through every page of it.
// - `job_id`: the worker's job that makes it (no foreign key: finished jobs are pruned).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("data_exports")
    .addColumn("id", t.autoId, id)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(sql`state in ('queued', 'ready', 'failed', 'expired')`),
    )
    .addColumn("size_bytes", "integer", (c) => c.check(sql`size_bytes > 0`))
    .addColumn("token_hash", "text", (c) => c.check(sql`length(token_hash) = 64`))
    .addColumn("asked_at", t.timestamp, (c) => c.notNull())
    .addColumn("ready_at", t.timestamp)
    .addColumn("expires_at", t.timestamp)
    .addColumn("job_id", "integer")
    .addColumn("downloads", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`downloads >= 0`),
    )
    .addColumn("archive", t.blob)
    // Only a ready archive holds bytes, and a ready one has them, its link and its end.
    .addCheckConstraint(
      "data_exports_ready_check",
      sql`(state = 'ready') = (archive is not null and token_hash is not null and expires_at is not null)`,
    )
    .execute();
  await db.schema
    .createIndex("data_exports_waiting_idx")
    .on("data_exports")
    .column("user_id")
    .unique()
    .where(sql.ref("state"), "=", "queued")
    .execute();
  // The account tab's list and the day's count: one account's, newest first.
  await db.schema
    .createIndex("data_exports_user_idx")
    .on("data_exports")
    .columns(["user_id", "asked_at"])
    .execute();
  // The link's lookup.
  await db.schema
    .createIndex("data_exports_token_idx")
    .on("data_exports")
    .column("token_hash")
    .unique()
    .execute();
  // The purge's question: the ready archives whose link has run out.
  await db.schema
    .createIndex("data_exports_expiry_idx")
    .on("data_exports")
    .columns(["state", "expires_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("data_exports").execute();
}
