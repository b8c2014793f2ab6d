import type { AppServices } from "~/context.server";
import { registerCustomer, signIn } from "~/domain/accounts/accounts.server";
import type { StaffRole } from "~/domain/staff/permissions";
import { cookieHeader } from "../support/request-context";

let counter = 0;

/**
 * A member of the staff of `role` (null: a member whose role is missing), made as the staff page makes
 * one: a registered account given `role = 'admin'` and its staff role. Their id, email and password.
 */
export async function staffMember(app: AppServices, role: StaffRole | null) {
  const email = `staff-${role ?? "none"}-${Date.now()}-${counter++}@example.com`;
  const password = "Staff-pw-5531";
  const registered = await registerCustomer(
    app,
    { name: `Staff ${role ?? "none"}`, email, password, confirmPassword: password },
    { registrationOpen: true },
  );
  if (!registered.ok) throw new Error(registered.error);
  await app.db
    .updateTable("users")
    .set({ role: "admin", staff_role: role })
    .where("id", "=", registered.userId)
    .execute();
  return { id: registered.userId, email, password };
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
