import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// The "client" role on the company's Discord server (docs/discord.md): one row, the bot that gives and
// takes the role, the server (guild) and the role. Linked Discord accounts themselves are better-auth's
// rows in `accounts` (provider_id 'discord'): this migration adds nothing there.
//
// - `id`: always 1 (a CHECK), so the settings are one row that saving updates.
// - `bot_token_encrypted`: the bot's token, encrypted with the auth secret, never read back to a page;
//   `bot_token_last4` what the page shows of it.
// - `guild_id`, `role_id`: Discord's snowflakes (digits), "" while not set.
// - `updated_by`: who saved it last, null once that account is gone.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("discord_settings")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("guild_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("role_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("bot_token_encrypted", "text")
    .addColumn("bot_token_last4", "text")
    .addColumn("updated_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("discord_settings").execute();
}
