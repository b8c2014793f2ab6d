import { sql } from "kysely";
import { inTransaction, Refusal, refuse, type Db } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { can } from "~/domain/staff/permissions";
import {
  requireStaffPermissionOrSystem,
  staffForbidden,
  type StaffForbidden,
} from "~/domain/staff/staff-actor.server";
import { forgetTrustedDevices } from "./own-sessions.server";
import { lockUser } from "./user-lock.server";

export type ResetTwoFactorResult =
  | { ok: true; message: "admin-clients.twoFactor.resetDone"; email: string }
  | { ok: false; kind: "notFound"; error: "admin-clients.errors.notFound" }
  /** An admin resets their own from the account tab, where their password and a code are asked. */
  | { ok: false; kind: "forbidden"; error: "admin-clients.twoFactor.errors.own" }
  | { ok: false; kind: "conflict"; error: "admin-clients.twoFactor.errors.deleted" }
  | { ok: false; kind: "conflict"; error: "admin-clients.twoFactor.errors.notOn" }
  /** The actor's role may not: `clients.edit`, and `staff.manage` for a member of the staff. */
  | StaffForbidden;

/**
 * Turns off another user's two-factor sign-in, for someone who lost their authenticator and
 * their backup codes: their secret and backup codes (the two_factors rows) are deleted, the account's
 * flag is cleared and the devices they told to skip the code are forgotten (better-auth keeps those as
 * `trust-device-…` verifications), recorded (`account.twoFactorReset`: its audit entry and the mail
 * telling them), all in one transaction. They then sign in with their password alone and may set it up
 * again. Their sessions are left alone: losing a phone is no reason to sign anyone out.
 *
 * `actorId` is the admin acting, never the user themself (they turn it off in their account tab); null
 * is the command line (`npm run admin -- reset-2fa`), whose `reason` the audit entry keeps: whoever runs
 * it holds the server already. A member of the staff acting needs `clients.edit`, and `staff.manage`
 * when the account is a member of the staff too (a second factor guards the staff's own sign-in),
 * checked in the transaction that resets.
 */
export async function resetTwoFactor(
  db: Db,
  input: { userId: string; actorId: string | null; reason?: string; now?: Date },
): Promise<ResetTwoFactorResult> {
  const now = input.now ?? new Date();
  if (input.actorId !== null && input.actorId === input.userId)
    return { ok: false, kind: "forbidden", error: "admin-clients.twoFactor.errors.own" };
  return inTransaction(db, async (trx): Promise<ResetTwoFactorResult> => {
    const actor = await requireStaffPermissionOrSystem(trx, input.actorId, "clients.edit");
    // The row is locked first, so two admins resetting at once audit and mail it once.
    await lockUser(trx, input.userId);
    const user = await trx
      .selectFrom("users")
      .select(["id", "email", "role", "status", "two_factor_enabled"])
      .where("id", "=", input.userId)
      .executeTakeFirst();
    if (!user) refuse<ResetTwoFactorResult>("notFound", "admin-clients.errors.notFound");
    if (actor && user.role === "admin" && !can(actor.role, "staff.manage"))
      throw new Refusal(staffForbidden("staff.manage"));
    if (user.status === "deleted")
      refuse<ResetTwoFactorResult>("conflict", "admin-clients.twoFactor.errors.deleted");
    if (!user.two_factor_enabled)
      refuse<ResetTwoFactorResult>("conflict", "admin-clients.twoFactor.errors.notOn");
    const removed = await trx.deleteFrom("two_factors").where("user_id", "=", user.id).execute();
    await trx
      .updateTable("users")
      // FALSE is a keyword of both databases; SQLite stores it as 0, like the rest of its flags.
      .set({ two_factor_enabled: sql<boolean>`false`, updated_at: now.toISOString() })
      .where("id", "=", user.id)
      .execute();
    await forgetTrustedDevices(trx, user.id);
    await record(
      trx,
      {
        type: "account.twoFactorReset",
        actorId: input.actorId,
        userId: user.id,
        secretsRemoved: removed.reduce((sum, row) => sum + Number(row.numDeletedRows), 0),
        reason: input.reason,
        at: now.toISOString(),
      },
      now,
    );
    return { ok: true, message: "admin-clients.twoFactor.resetDone", email: user.email };
  });
}
