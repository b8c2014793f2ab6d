import type { ColumnDefinitionBuilder, Kysely } from "kysely";
import { columnTypes } from "./column-types";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();

  // Pruning old attempts and counting the last 24 hours read by time alone.
  await db.schema
    .createIndex("login_attempts_created_idx")
    .on("login_attempts")
    .column("created_at")
    .execute();

  // An admin lifted the login block of an address or an email: attempts up to then stop counting.
  await db.schema
    .createTable("login_throttle_lifts")
    .addColumn("id", t.autoId, id)
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("lifted_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("login_throttle_lifts_key_idx")
    .on("login_throttle_lifts")
    .columns(["kind", "key", "created_at"])
    .execute();

  // The per-address form limit (express-rate-limit, in memory) refused an address: one row per address
  // and window at most, pruned by age and count (see login-throttle.server.ts).
  await db.schema
    .createTable("rate_limit_refusals")
    .addColumn("id", t.autoId, id)
    .addColumn("ip_address", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("ends_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("rate_limit_refusals_created_idx")
    .on("rate_limit_refusals")
    .column("created_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limit_refusals").execute();
  await db.schema.dropTable("login_throttle_lifts").execute();
  await db.schema.dropIndex("login_attempts_created_idx").execute();
}
