import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// The service lifecycle (issue 24): the automation reminds, renews from coins, suspends and terminates
// services by itself, and rejects orders nobody decided.
//
// - `auto_renew` on a service (and on the order that becomes one): the customer's switch. Off (0) for
//   every service and order that exists when this runs; the order form sends it on for new orders.
// - `suspension_reason` ("expired" by the automation, "admin" by hand; null for suspensions made before,
//   which count as an admin's) and `suspended_at`, from which the termination is counted.
// - The due selection reads services by (status, expires_at) (0004) and the expired suspensions by the
//   index below, so a run reads the services that are due, not all of them.
// - The lifecycle's settings row: switched off on an install that already has hosting services (the first
//   run must not suspend or terminate long-expired ones unasked), on for a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .alterTable("hosting_services")
    .addColumn("auto_renew", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("hosting_services").addColumn("suspension_reason", "text").execute();
  await db.schema.alterTable("hosting_services").addColumn("suspended_at", t.timestamp).execute();
  await db.schema
    .alterTable("orders")
    .addColumn("auto_renew", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("hosting_services_suspension_idx")
    .on("hosting_services")
    .columns(["suspension_reason", "suspended_at"])
    .execute();

  const { rows } = await sql<{ id: number }>`select id from hosting_services limit 1`.execute(db);
  const value = JSON.stringify({ enabled: rows.length === 0 });
  await sql`
    insert into settings (key, value, updated_at) values ('lifecycle', ${value}, ${new Date().toISOString()})
    on conflict (key) do nothing
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from settings where key = 'lifecycle'`.execute(db);
  await db.schema.dropIndex("hosting_services_suspension_idx").ifExists().execute();
  await db.schema.alterTable("orders").dropColumn("auto_renew").execute();
  await db.schema.alterTable("hosting_services").dropColumn("suspended_at").execute();
  await db.schema.alterTable("hosting_services").dropColumn("suspension_reason").execute();
  await db.schema.alterTable("hosting_services").dropColumn("auto_renew").execute();
}
