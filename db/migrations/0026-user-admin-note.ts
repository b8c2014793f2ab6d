import type { Kysely } from "kysely";

// The client page (/admin/clients/:id, issue 21): an admin's note on an account, read and written only by
// admins. Null when there is none; erased with the rest of an account's personal data on deletion.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("admin_note", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("admin_note").execute();
}
