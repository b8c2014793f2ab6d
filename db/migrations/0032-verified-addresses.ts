import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Verified addresses (issue 25, docs/accounts.md). An account must verify its email before it orders,
// opens a ticket or asks for coins, once mail can reach it. Every account that exists when this runs is
// marked verified: turning SMTP on later must never lock today's customers out of what they could do.
// `pending_email`: the address an email change waits to have confirmed (the link sent to it); the login
// stays the old one until then. `pending_email_at`: when it was asked, which the account tab shows.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await sql`update users set email_verified = ${t.postgres ? sql`true` : sql`1`}`.execute(db);
  await db.schema.alterTable("users").addColumn("pending_email", "text").execute();
  await db.schema.alterTable("users").addColumn("pending_email_at", t.timestamp).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("pending_email_at").execute();
  await db.schema.alterTable("users").dropColumn("pending_email").execute();
}
