import type { Kysely } from "kysely";

// The admin's client page lists the mail sent to one account: `mail_outbox (user_id, id)` finds its newest
// messages without reading the rest of the outbox. The reports add up approved top-ups by the month they
// were approved: `top_up_requests (state, decided_at)` reads only those of the report's months.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("mail_outbox_user_idx")
    .on("mail_outbox")
    .columns(["user_id", "id"])
    .execute();
  await db.schema
    .createIndex("top_up_requests_decided_idx")
    .on("top_up_requests")
    .columns(["state", "decided_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("top_up_requests_decided_idx").execute();
  await db.schema.dropIndex("mail_outbox_user_idx").execute();
}
