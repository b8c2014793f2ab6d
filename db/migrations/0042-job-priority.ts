import type { Kysely } from "kysely";

// `jobs.priority`: a claim takes the waiting jobs of the highest priority first, then the oldest. Security
// mail (a password reset, an address to verify, an admin's sign-in) is queued above every other job, so
// a flood of ordinary mail (two thousand "new ticket" messages once held a reset back for minutes) never
// stands in front of it. 0 for every job queued before.
// `tickets.created_at` gets an index: a window's summary for staff counts the tickets opened in it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("jobs")
    .addColumn("priority", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("tickets_created_idx").on("tickets").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("tickets_created_idx").execute();
  await db.schema.alterTable("jobs").dropColumn("priority").execute();
}
