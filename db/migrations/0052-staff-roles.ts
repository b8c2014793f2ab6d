import { sql, type Kysely } from "kysely";

// Staff roles (docs/staff.md, ADR 57):
// - `users.staff_role`: what a member of the staff may do (owner, billing, support, technician), set
//   only while `role` is 'admin'; every admin before roles existed becomes an owner.
// - `sessions.proven_at`: when the session's person last proved who they are (the sign-in, or their
//   password or code typed again), so the most sensitive changes can ask again after 15 minutes.
// - `sessions.viewing_user_id`: the customer a staff session is viewing as, read-only; it ends with the
//   session.
// - The security settings' "two-factor required" becomes a list of roles. An install that already has
//   settings keeps what it had (all roles when it was on, none when off); a new one gets the default
//   (owner and billing).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("staff_role", "text").execute();
  await sql`update users set staff_role = 'owner' where role = 'admin'`.execute(db);
  await db.schema.alterTable("sessions").addColumn("proven_at", "text").execute();
  await db.schema
    .alterTable("sessions")
    .addColumn("viewing_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .execute();

  const rows = await sql<{
    value: string;
  }>`select value from settings where key = 'security'`.execute(db);
  const stored = rows.rows[0];
  if (stored) {
    let value: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(stored.value);
      if (parsed && typeof parsed === "object") value = parsed as Record<string, unknown>;
    } catch {
      // an unreadable row: rewritten with what an install that never turned the rule on had
    }
    const { requireAdminTwoFactor, ...rest } = value;
    const twoFactorRoles =
      requireAdminTwoFactor === true ? ["owner", "billing", "support", "technician"] : [];
    await sql`update settings set value = ${JSON.stringify({ ...rest, twoFactorRoles })} where key = 'security'`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{
    value: string;
  }>`select value from settings where key = 'security'`.execute(db);
  const stored = rows.rows[0];
  if (stored) {
    let roles: unknown;
    try {
      roles = (JSON.parse(stored.value) as { twoFactorRoles?: unknown }).twoFactorRoles;
    } catch {
      roles = [];
    }
    const requireAdminTwoFactor = Array.isArray(roles) && roles.length > 0;
    await sql`update settings set value = ${JSON.stringify({ requireAdminTwoFactor })} where key = 'security'`.execute(
      db,
    );
  }
  await db.schema.alterTable("sessions").dropColumn("viewing_user_id").execute();
  await db.schema.alterTable("sessions").dropColumn("proven_at").execute();
  await db.schema.alterTable("users").dropColumn("staff_role").execute();
}
