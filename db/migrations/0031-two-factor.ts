import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Two-factor sign-in (issue 25): better-auth's twoFactor plugin, renamed to our conventions (the field
// mapping is in app/domain/accounts/auth.server.ts). `secret` and `backup_codes` are written encrypted by
// the plugin with a key derived from AUTH_SECRET, so a dump of this table holds no usable secret; which
// is also why a backup must carry data/auth-secret (README, "Backups").
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const falseValue = t.postgres ? sql`false` : 0;
  await db.schema
    .alterTable("users")
    .addColumn("two_factor_enabled", t.boolean, (c) => c.notNull().defaultTo(falseValue))
    .execute();
  await db.schema
    .createTable("two_factors")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("backup_codes", "text", (c) => c.notNull())
    // False between "turn on" and the first code that confirms it; only a verified row asks for a code.
    .addColumn("verified", t.boolean, (c) => c.notNull().defaultTo(t.postgres ? sql`true` : 1))
    .addColumn("failed_verification_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_until", t.timestamp)
    .execute();
  await db.schema
    .createIndex("two_factors_user_id_idx")
    .on("two_factors")
    .column("user_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("two_factors").execute();
  await db.schema.alterTable("users").dropColumn("two_factor_enabled").execute();
}
