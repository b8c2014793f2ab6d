import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { AppServices } from "~/context.server";
import type { StaffRole } from "~/domain/staff/permissions";
import { signIn } from "~/domain/accounts/accounts.server";
import { registeredCustomer } from "./account-fixtures";
import { cookieHeader } from "./request-context";

/** The password of every member made here. */
export const STAFF_MEMBER_PASSWORD = "Staff-member-pw-2741";

/**
 * A member of the staff of `role` (null: a member whose role is missing), made as the staff page makes
 * one: an account registered as a customer's, then given `role = 'admin'` and its staff role (ADR 57).
 * Their id, email and password.
 */
export async function staffAccount(app: AppServices, role: StaffRole | null) {
  const email = `${role ?? "none"}-${randomUUID().slice(0, 8)}@staff.example`;
  const id = await registeredCustomer(app, {
    name: `${role ?? "no role"} member`,
    email,
    password: STAFF_MEMBER_PASSWORD,
  });
  await app.db
    .updateTable("users")
    .set({ role: "admin", staff_role: role })
    .where("id", "=", id)
    .execute();
  return { id, email, password: STAFF_MEMBER_PASSWORD };
}

/** A member of the staff of `role` (staffAccount): their id. */
export async function staffMember(app: AppServices, role: StaffRole): Promise<string> {
  return (await staffAccount(app, role)).id;
}

/** Signs `account` in (from an address of its own, clear of the sign-in throttle): its Cookie header. */
export async function staffCookie(
  app: AppServices,
  account: { email: string; password: string },
  ip: string,
): Promise<string> {
  const result = await signIn(app, account, { ip }, { ipPerMinute: 1_000_000 });
  if (!result.ok) throw new Error(`sign in failed for ${account.email}`);
  return cookieHeader(result.setCookies);
}

/** Turns an account's two-factor sign-in on, as enrolling would leave it (a secret and the flag). */
export async function withTwoFactor(app: AppServices, userId: string): Promise<void> {
  await app.db
    .insertInto("two_factors")
    .values({
      id: randomUUID(),
      user_id: userId,
      secret: "encrypted-secret-placeholder",
      backup_codes: "encrypted-backup-codes-placeholder",
    })
    .execute();
  await app.db
    .updateTable("users")
    .set({ two_factor_enabled: sql<boolean>`true` })
    .where("id", "=", userId)
    .execute();
}
