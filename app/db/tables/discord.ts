import type { Timestamp } from "./columns";

/**
 * The bot, server and role of the Discord "client" role (migration 0062, docs/discord.md): one row (id 1).
 * The token is encrypted with the auth secret; the page shows its last four characters only.
 */
export interface DiscordSettingsTable {
  id: number;
  guild_id: string;
  role_id: string;
  bot_token_encrypted: string | null;
  bot_token_last4: string | null;
  updated_by: string | null;
  updated_at: Timestamp;
}

/** Discord's tables, joined to the Database interface (app/db/schema.ts). */
export interface DiscordTables {
  discord_settings: DiscordSettingsTable;
}
