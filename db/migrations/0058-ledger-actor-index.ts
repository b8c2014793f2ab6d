import type { Kysely } from "kysely";

// A Support member's daily goodwill cap adds up what they credited today, on every credit they give.
// Without an index on the actor the whole ledger was read for it; with the columns the sum needs in the
// index, it is read from the index alone.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("coin_ledger_actor_day_idx")
    .on("coin_ledger")
    .columns(["actor_id", "created_at", "kind", "amount_cents"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("coin_ledger_actor_day_idx").ifExists().execute();
}
