import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);

  // better-auth's user, session, account and verification models, renamed to our conventions
  // (see app/domain/accounts/auth.server.ts for the field mapping).
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("email_verified", t.boolean, (c) =>
      c.notNull().defaultTo(t.postgres ? sql`false` : 0),
    )
    .addColumn("image", "text")
    .addColumn("role", "text", (c) => c.notNull().defaultTo("user"))
    .addColumn("banned", t.boolean, (c) => c.defaultTo(t.postgres ? sql`false` : 0))
    .addColumn("ban_reason", "text")
    .addColumn("ban_expires", t.timestamp)
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("coin_balance_cents", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`coin_balance_cents >= 0`),
    )
    .addColumn("must_change_password", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locale", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("users_role_check", sql`role in ('user', 'admin')`)
    .execute();
  await db.schema.createIndex("users_role_idx").on("users").column("role").execute();
  await db.schema.createIndex("users_name_idx").on("users").column("name").execute();
  await db.schema.createIndex("users_created_at_idx").on("users").column("created_at").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("ip_address", "text")
    .addColumn("user_agent", "text")
    .addColumn("impersonated_by", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("access_token", "text")
    .addColumn("refresh_token", "text")
    .addColumn("id_token", "text")
    .addColumn("access_token_expires_at", t.timestamp)
    .addColumn("refresh_token_expires_at", t.timestamp)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("accounts_user_id_idx").on("accounts").column("user_id").execute();

  await db.schema
    .createTable("verifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("verifications_identifier_idx")
    .on("verifications")
    .column("identifier")
    .execute();

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("login_attempts")
    .addColumn("id", t.autoId, (c) =>
      t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("ip_address", "text", (c) => c.notNull())
    .addColumn("succeeded", "integer", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("login_attempts_email_idx")
    .on("login_attempts")
    .columns(["email", "created_at"])
    .execute();
  await db.schema
    .createIndex("login_attempts_ip_idx")
    .on("login_attempts")
    .columns(["ip_address", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "login_attempts",
    "settings",
    "verifications",
    "accounts",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
