import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The key a reply or new-ticket form carries (issue 21, as orders and coin forms have, ADR 10): unique,
  // so a post sent twice (a double tap, a retry, the browser resending it) stores one message. Messages
  // written before, or by a script without a form, have none; both dialects let a unique index hold many
  // NULLs.
  await db.schema.alterTable("ticket_messages").addColumn("idempotency_key", "text").execute();
  await db.schema
    .createIndex("ticket_messages_idempotency_key_idx")
    .on("ticket_messages")
    .column("idempotency_key")
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("ticket_messages_idempotency_key_idx").ifExists().execute();
  await db.schema.alterTable("ticket_messages").dropColumn("idempotency_key").execute();
}
