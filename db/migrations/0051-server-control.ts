import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// A provisioned server in its customer's hands (docs/server-control.md):
// - `panel_connections.client_key_*`: a Client API key of one of the panel's root admins, which the
//   worker alone uses to read a server's state and send its power signals; encrypted with the
//   application key's address, as that key is.
// - `server_status`: the last state the worker read of each server (the panel's resources, the game's
//   players), which every page shows with its age; a page never waits on the panel or the game.
// - `server_actions`: what a customer or an admin asked of a server (a power signal, a reinstall, a
//   variable, a new panel password), one row each, the job that does it and how it ended: the card shows
//   the last one, and the limits per service count them.
// - `hosting_services.offline_notice`: the customer's optional notice when the server has been offline
//   for ten minutes (off by default).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .alterTable("panel_connections")
    .addColumn("client_key_encrypted", "text")
    .execute();
  await db.schema.alterTable("panel_connections").addColumn("client_key_last4", "text").execute();
  await db.schema
    .alterTable("hosting_services")
    .addColumn("offline_notice", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("server_status")
    .addColumn("hosting_service_id", "integer", (c) =>
      c.primaryKey().references("hosting_services.id").onDelete("cascade"),
    )
    // running | starting | stopping | offline | installing | suspended | unknown
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("unknown")
        .check(
          sql`state in ('running', 'starting', 'stopping', 'offline', 'installing', 'suspended', 'unknown')`,
        ),
    )
    // Tenths of a percent of one core (the panel's cpu_absolute), MiB, seconds.
    .addColumn("cpu_tenths", "integer")
    .addColumn("memory_mib", "integer")
    .addColumn("disk_mib", "integer")
    .addColumn("uptime_seconds", "integer")
    // When the panel last answered, and why the last read failed (a catalogue key), null after a good one.
    .addColumn("read_at", t.timestamp)
    .addColumn("read_error", "text")
    // When a page last asked for a fresher state than it had: the refresh job is queued then.
    .addColumn("requested_at", t.timestamp)
    // The game's own answer (the SA-MP or MTA query): its name, players online and its maximum.
    .addColumn("game_name", "text")
    .addColumn("players_online", "integer")
    .addColumn("players_max", "integer")
    .addColumn("players_read_at", t.timestamp)
    .addColumn("players_error", "text")
    // SFTP and the editable variables, read with the state (they change rarely): JSON.
    .addColumn("access", "text")
    .addColumn("variables", "text")
    // Since when the server has been seen offline (null while it is not), and when the customer was told.
    .addColumn("offline_since", t.timestamp)
    .addColumn("offline_notified_at", t.timestamp)
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("server_actions")
    .addColumn("id", t.autoId, id)
    .addColumn("hosting_service_id", "integer", (c) =>
      c.notNull().references("hosting_services.id").onDelete("cascade"),
    )
    .addColumn("action", "text", (c) =>
      c
        .notNull()
        .check(
          sql`action in ('start', 'restart', 'stop', 'kill', 'reinstall', 'variable', 'password')`,
        ),
    )
    // A variable's name for `variable` (its value is not kept here: the panel has it).
    .addColumn("detail", "text")
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(sql`state in ('queued', 'done', 'failed')`),
    )
    // Why it failed: a catalogue key.
    .addColumn("error", "text")
    .addColumn("actor_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("job_id", "integer")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("server_actions_service_idx")
    .on("server_actions")
    .columns(["hosting_service_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("server_actions").execute();
  await db.schema.dropTable("server_status").execute();
  await db.schema.alterTable("hosting_services").dropColumn("offline_notice").execute();
  await db.schema.alterTable("panel_connections").dropColumn("client_key_last4").execute();
  await db.schema.alterTable("panel_connections").dropColumn("client_key_encrypted").execute();
}
