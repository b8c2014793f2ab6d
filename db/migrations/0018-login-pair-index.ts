import type { Kysely } from "kysely";

// The login throttle counts failures per email and address together, and lets an address that signed in
// to the account in the last 30 days through (login-throttle.ts). Both questions are one seek in this
// index: (email, address, failed) up to a time, and (email, address, succeeded) newest first. Without it
// they read every attempt of the email in the window, or in 30 days, through (email, created_at).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("login_attempts_pair_idx")
    .on("login_attempts")
    .columns(["email", "ip_address", "succeeded", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("login_attempts_pair_idx").ifExists().execute();
}
