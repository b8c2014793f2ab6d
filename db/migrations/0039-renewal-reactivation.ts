import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

// A refunded renewal takes back what it did (docs/invoices.md, "What a refund does to the service").
//
// - `service_renewals.reactivated_suspended_at`: when the renewal reactivated a service suspended for
//   expiry, the moment it had been suspended; null otherwise, and for every renewal from before (what
//   they did is not known, so their refund leaves the service's status as it is). Taking the renewal back
//   suspends the service again from that moment, so the termination countdown is the one it had.
// - `service_renewals_service_idx`: the refund form and the refund find a renewal by its service and the
//   expiry it gave.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .alterTable("service_renewals")
    .addColumn("reactivated_suspended_at", t.timestamp)
    .execute();
  await db.schema
    .createIndex("service_renewals_service_idx")
    .on("service_renewals")
    .columns(["hosting_service_id", "new_expires_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("service_renewals_service_idx").execute();
  await db.schema.alterTable("service_renewals").dropColumn("reactivated_suspended_at").execute();
}
