import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { AppServices } from "~/context.server";
import type { StaffRole } from "~/domain/staff/permissions";
import { registeredCustomer } from "./account-fixtures";

/** The password of every member made by staffMember. */
export const STAFF_MEMBER_PASSWORD = "Staff-member-pw-2741";

/**
 * A member of the staff of `role`: an account registered as a customer's, then made staff as ADR 57
 * says one is (`role` 'admin', `staff_role` their role). Its id.
 */
export async function staffMember(app: AppServices, role: StaffRole): Promise<string> {
  const id = await registeredCustomer(app, {
    name: `${role} member`,
    email: `${role}-${randomUUID().slice(0, 8)}@staff.example`,
    password: STAFF_MEMBER_PASSWORD,
  });
  await app.db
    .updateTable("users")
    .set({ role: "admin", staff_role: role })
    .where("id", "=", id)
    .execute();
  return id;
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
