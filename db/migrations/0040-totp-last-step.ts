import type { Kysely } from "kysely";

// `users.totp_last_step`: the 30-second step of the last authenticator code the account used (RFC 6238,
// section 5.2: a code is accepted once). A code of that step or an earlier one is refused, so a code
// seen over a shoulder or in a proxy's log cannot sign in again while it is still valid. Null until
// the account's first code.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("totp_last_step", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("totp_last_step").execute();
}
