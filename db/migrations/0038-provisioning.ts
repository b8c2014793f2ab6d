import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Provisioning on a Pterodactyl panel (issue 27, docs/provisioning.md).
//
// - `panel_connections`: the one panel (a single row, id 1). The Application API key is stored encrypted
//   with the auth secret (as better-auth keeps two-factor secrets); only its last four characters are
//   kept in clear, to show which key is saved. `location_map` maps the order form's locations to the
//   panel's location ids (JSON). `snapshot` is what a check job last read from the panel.
// - `products.provisioning`: the product's provisioning block (JSON, docs/provisioning.md), null for a
//   product provisioned by hand.
// - `hosting_services.panel_*`: where the service stands on the panel. `panel_state` is null for a
//   service no panel knows (manual products, everything from before); `panel_plan` is the block and the
//   build computed at approval, so a later edit of the product changes no server being made.
// - `panel_accounts`: a customer's panel user (found by external id `hf-user-<id>`, or by email).
// - `panel_port_claims`: allocations a job has picked for a service. The primary key is the lock: two
//   jobs that pick the same allocation cannot both claim it, whatever the panel's list said.
// - `panel_calls`: every call made to the panel (method, path, status, duration; never the key), per
//   service when it was for one.
// - `panel_drift`: what the nightly reconciliation found last (replaced by each run).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();

  await db.schema
    .createTable("panel_connections")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("api_key_encrypted", "text", (c) => c.notNull())
    .addColumn("api_key_last4", "text", (c) => c.notNull())
    .addColumn("location_map", "text", (c) => c.notNull().defaultTo("{}"))
    // What the panel had at the last check (locations, nodes with their use, nests and eggs): the admin's
    // pages and the order form read it, so no request waits on the panel (a job fetches it).
    .addColumn("snapshot", "text")
    .addColumn("checked_at", t.timestamp)
    .addColumn("check_error", "text")
    .addColumn("check_requested_at", t.timestamp)
    .addColumn("updated_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema.alterTable("products").addColumn("provisioning", "text").execute();

  const states = sql`panel_state in ('pending', 'creating', 'installing', 'ready', 'failed', 'suspended', 'deleted')`;
  await db.schema
    .alterTable("hosting_services")
    .addColumn("panel_state", "text", (c) => c.check(states))
    .execute();
  for (const [name, type] of [
    ["panel_plan", "text"],
    ["panel_server_id", "integer"],
    ["panel_identifier", "text"],
    ["panel_node_id", "integer"],
    ["panel_address", "text"],
    ["panel_ports", "text"],
    ["panel_error", "text"],
    ["panel_updated_at", t.timestamp],
  ] as const)
    await db.schema.alterTable("hosting_services").addColumn(name, type).execute();
  await db.schema
    .createIndex("hosting_services_panel_state_idx")
    .on("hosting_services")
    .column("panel_state")
    .execute();

  await db.schema
    .createTable("panel_accounts")
    .addColumn("user_id", "text", (c) => c.primaryKey())
    .addColumn("panel_user_id", "integer", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("panel_port_claims")
    .addColumn("allocation_id", "integer", (c) => c.primaryKey())
    .addColumn("node_id", "integer", (c) => c.notNull())
    .addColumn("hosting_service_id", "integer", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("panel_port_claims_service_idx")
    .on("panel_port_claims")
    .column("hosting_service_id")
    .execute();

  await db.schema
    .createTable("panel_calls")
    .addColumn("id", t.autoId, id)
    .addColumn("hosting_service_id", "integer")
    .addColumn("job_id", "integer")
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("error_code", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("panel_calls_service_idx")
    .on("panel_calls")
    .columns(["hosting_service_id", "id"])
    .execute();
  await db.schema
    .createIndex("panel_calls_created_idx")
    .on("panel_calls")
    .column("created_at")
    .execute();

  await db.schema
    .createTable("panel_drift")
    .addColumn("id", t.autoId, id)
    .addColumn("kind", "text", (c) =>
      c.notNull().check(sql`kind in ('missing', 'extra', 'suspended_here', 'suspended_there')`),
    )
    .addColumn("hosting_service_id", "integer")
    .addColumn("panel_server_id", "integer")
    .addColumn("detail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("found_at", t.timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "panel_drift",
    "panel_calls",
    "panel_port_claims",
    "panel_accounts",
    "panel_connections",
  ])
    await db.schema.dropTable(table).execute();
  await db.schema.dropIndex("hosting_services_panel_state_idx").execute();
  for (const name of [
    "panel_updated_at",
    "panel_error",
    "panel_ports",
    "panel_address",
    "panel_node_id",
    "panel_identifier",
    "panel_server_id",
    "panel_plan",
    "panel_state",
  ])
    await db.schema.alterTable("hosting_services").dropColumn(name).execute();
  await db.schema.alterTable("products").dropColumn("provisioning").execute();
}
