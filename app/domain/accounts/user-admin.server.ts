import { randomUUID } from "node:crypto";
import { inTransaction, orWhenTaken, Refusal, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import type { FailureKind } from "~/lib/result";
import { can } from "~/domain/staff/permissions";
import {
  requireStaffPermission,
  staffForbidden,
  type StaffForbidden,
} from "~/domain/staff/staff-actor.server";
import { isCommonPassword } from "./accounts.server";
import { endUserSessions } from "./own-sessions.server";
import { eraseAccount } from "./account-deletion.server";
import { hashPassword } from "./password-hash.server";
import { emailTakenByAnother } from "./user-directory.server";
import type { UpdateUserInput } from "./user-admin";
import { lockUser } from "./user-lock.server";

export type UserAdminRefusal =
  | "admin.users.errors.notFound"
  | "admin.users.errors.emailTaken"
  | "admin.users.errors.notAdmin"
  | "admin.users.errors.adminDelete"
  | "auth.errors.commonPassword";

/**
 * The kind each refusal is: a user who is not there (or no longer active) is not found; a common
 * password is a field to correct; an address another account has conflicts with the present state; an
 * acting admin who is no longer one, and deleting an admin (admins are never deleted) are not allowed.
 */
const REFUSAL_KINDS = {
  "admin.users.errors.notFound": "notFound",
  "auth.errors.commonPassword": "invalid",
  "admin.users.errors.emailTaken": "conflict",
  "admin.users.errors.notAdmin": "forbidden",
  "admin.users.errors.adminDelete": "forbidden",
} as const satisfies Record<UserAdminRefusal, FailureKind>;

type UserAdminFailure<Message extends string> = {
  [Reason in UserAdminRefusal]: {
    ok: false;
    kind: (typeof REFUSAL_KINDS)[Reason];
    error: Message;
    reason: Reason;
  };
}[UserAdminRefusal];

export type UpdateUserResult =
  | { ok: true; changed: string[] }
  | UserAdminFailure<"admin.users.updateFailed">
  /** The actor's role may not: `clients.edit`, and `staff.manage` for a member of the staff. */
  | StaffForbidden;

export type DeleteUserResult =
  | { ok: true }
  | UserAdminFailure<"admin.users.deleteFailed">
  /** The actor's role does not edit client accounts (`clients.edit`). */
  | StaffForbidden;

function failure<Message extends string>(
  error: Message,
  reason: UserAdminRefusal,
): UserAdminFailure<Message> {
  return { ok: false, kind: REFUSAL_KINDS[reason], error, reason } as UserAdminFailure<Message>;
}

export { deletedUserEmail } from "./account-deletion.server";

/** Checks, in the change's transaction, that the acting admin still is an active one. */
async function checkActor(trx: Tx, actorId: string): Promise<void> {
  const actor = await trx
    .selectFrom("users")
    .select("id")
    .where("id", "=", actorId)
    .where("role", "=", "admin")
    .where("status", "=", "active")
    .executeTakeFirst();
  if (!actor) refuse("admin.users.errors.notAdmin");
}

function refuse(reason: UserAdminRefusal): never {
  throw new Refusal<UpdateUserResult>(failure("admin.users.updateFailed", reason));
}

function refuseDelete(reason: UserAdminRefusal): never {
  throw new Refusal<DeleteUserResult>(failure("admin.users.deleteFailed", reason));
}

/**
 * An admin edits a user's name, email and (when given) password, in one transaction with its audit
 * entry. Refused ('Failed to update user', with the reason): an email another account has, or an actor
 * who is no longer an admin. A new password is hashed into the credential account, that user's sessions
 * end (except the acting admin's own current one), and another user must choose their own password at
 * next login. Who is on the staff, and with what role, is /admin/staff's (app/domain/staff/staff.server.ts).
 * The actor's role must hold `clients.edit`, and `staff.manage` when the account is a member of the
 * staff (its password and address are the way into the admin pages).
 */
export async function updateUserByAdmin(
  db: Db,
  input: Omit<UpdateUserInput, "password"> & {
    password?: string;
    actorId: string;
    /** The acting admin's own session, kept when they change their own password. */
    actorSessionId?: string;
  },
): Promise<UpdateUserResult> {
  // Hashing is slow (Argon2id); done before the transaction so no lock is held while it runs.
  if (input.password && isCommonPassword(input.password))
    return failure("admin.users.updateFailed", "auth.errors.commonPassword");
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  // Another account took the address between our check and the update.
  return orWhenTaken(failure("admin.users.updateFailed", "admin.users.errors.emailTaken"), () =>
    inTransaction(db, async (trx): Promise<UpdateUserResult> => {
      await checkActor(trx, input.actorId);
      const actor = await requireStaffPermission(trx, input.actorId, "clients.edit");
      const user = await trx
        .selectFrom("users")
        .select(["id", "name", "email", "role"])
        .where("id", "=", input.userId)
        .where("status", "=", "active")
        .executeTakeFirst();
      if (!user) refuse("admin.users.errors.notFound");
      if (user.role === "admin" && !can(actor.role, "staff.manage"))
        throw new Refusal(staffForbidden("staff.manage"));
      const self = user.id === input.actorId;

      if (input.email !== user.email && (await emailTakenByAnother(trx, input.email, user.id)))
        refuse("admin.users.errors.emailTaken");

      const now = new Date().toISOString();
      const changed: string[] = (["name", "email"] as const).filter(
        (key) => input[key] !== user[key],
      );
      await trx
        .updateTable("users")
        .set({
          name: input.name,
          email: input.email,
          updated_at: now,
          ...(passwordHash && !self ? { must_change_password: 1 } : {}),
        })
        .where("id", "=", user.id)
        .execute();

      if (passwordHash) {
        changed.push("password");
        const updated = await trx
          .updateTable("accounts")
          .set({ password: passwordHash, updated_at: now })
          .where("user_id", "=", user.id)
          .where("provider_id", "=", "credential")
          .executeTakeFirst();
        // An account without a credential row (none today, but imports may make one) gets one.
        if (Number(updated.numUpdatedRows) === 0) {
          await trx
            .insertInto("accounts")
            .values({
              id: randomUUID().replace(/-/g, ""),
              user_id: user.id,
              account_id: user.id,
              provider_id: "credential",
              password: passwordHash,
              created_at: now,
              updated_at: now,
            })
            .execute();
        }
      }
      if (passwordHash)
        await endUserSessions(trx, user.id, self ? input.actorSessionId : undefined);

      const pick = (source: Record<string, string>) =>
        Object.fromEntries(
          changed.filter((key) => key !== "password").map((key) => [key, source[key]]),
        );
      await record(trx, {
        type: "account.updatedByAdmin",
        actorId: input.actorId,
        userId: user.id,
        change: {
          before: pick(user),
          after: {
            ...pick(input as Record<string, string>),
            ...(passwordHash ? { password: "changed" } : {}),
          },
        },
      });
      return { ok: true, changed };
    }),
  );
}

/**
 * Deletes a customer account without losing history: coin_ledger, orders and hosting_services keep
 * pointing at the row, so it is a soft delete. The account is erased as a completed deletion request
 * erases it (`eraseAccount`: anonymised, sessions, credentials, newsletter, contact messages, login
 * attempts and notifications removed; a pending deletion request is closed). Admins are never deleted.
 * One transaction with its audit entry; its actor's role must hold `clients.edit`.
 */
export async function deleteUserByAdmin(
  db: Db,
  input: { userId: string; actorId: string },
): Promise<DeleteUserResult> {
  return inTransaction(db, async (trx): Promise<DeleteUserResult> => {
    await requireStaffPermission(trx, input.actorId, "clients.edit");
    // Locks the row (a concurrent promotion or delete waits, then is seen below).
    await lockUser(trx, input.userId);
    const user = await trx
      .selectFrom("users")
      .select(["id", "role", "email"])
      .where("id", "=", input.userId)
      .where("status", "=", "active")
      .executeTakeFirst();
    if (!user) refuseDelete("admin.users.errors.notFound");
    if (user.role === "admin") refuseDelete("admin.users.errors.adminDelete");
    await eraseAccount(trx, user, input.actorId);
    // No name or email in the event: the point of the delete is that they are gone.
    await record(trx, {
      type: "account.deletedByAdmin",
      actorId: input.actorId,
      userId: user.id,
      role: user.role,
    });
    return { ok: true };
  });
}
