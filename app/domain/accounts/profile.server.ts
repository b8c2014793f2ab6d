import { z } from "~/lib/zod";
import { inTransaction, orWhenTaken, Refusal, type Db } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import {
  LOGIN_IP_ATTEMPT_LIMIT,
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
} from "./accounts";
import type { Auth } from "./auth.server";
import { confirmCurrentPassword, type CurrentPasswordRefusal } from "./current-password.server";
import { makeVerificationToken, requestEmailChange } from "./email-verification.server";
import { emailTakenByAnother } from "./user-directory.server";
import { endUserSessions } from "./own-sessions.server";

export const profileSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "auth.errors.nameRequired")
    .max(MAX_NAME_LENGTH, "auth.errors.nameTooLong"),
  email: z
    .string()
    .trim()
    .max(MAX_EMAIL_LENGTH, "auth.errors.emailInvalid")
    .pipe(z.email("auth.errors.emailInvalid"))
    .transform((v) => v.toLowerCase()),
  // Needed only when the email changes; empty means not given.
  currentPassword: z
    .string()
    .max(MAX_PASSWORD_LENGTH, "dashboard.account.currentPasswordWrong")
    .optional()
    .transform((v) => (v ? v : undefined)),
});

export const accountActionSchema = z.discriminatedUnion("intent", [
  profileSchema.extend({ intent: z.literal("profile") }),
  z.object({ intent: z.literal("end-session"), sessionId: z.string().min(1).max(100) }),
  // An email change waiting for its link is given up (docs/accounts.md).
  z.object({ intent: z.literal("cancel-email-change") }),
]);

export type ProfileRefusal =
  | "dashboard.account.emailTaken"
  | "dashboard.account.currentPasswordRequired"
  | "dashboard.account.currentPasswordWrong";

export type UpdateProfileResult =
  | {
      ok: true;
      emailChanged: boolean;
      sessionsEnded: number;
      /** The new address waits for its link to be followed (with SMTP); the login is still the old. */
      emailPending?: string;
    }
  /** Another account has the address. */
  | { ok: false; kind: "conflict"; error: "dashboard.account.emailTaken"; field: "email" }
  | {
      ok: false;
      kind: "invalid";
      error: "dashboard.account.currentPasswordRequired";
      field: "currentPassword";
    }
  | CurrentPasswordRefusal;

/**
 * A customer edits their own name and login email. The email is what signs in and what a reset would be
 * sent to, so changing it takes the current password (someone at an unattended, signed-in browser must
 * not be able to take the account over), ends every other session of the account (the one in use stays
 * signed in) and writes an audit entry with the old and the new address: the old address is to be told
 * of the change once the site sends email; until then the audit log is where it is recorded. The password
 * is checked through the login throttle (`checkCurrentPassword`), from the client's address, like a
 * sign-in to the account's present email.
 *
 * With SMTP configured (`options.confirmWith`, docs/accounts.md) a change does not take effect here: the
 * new address waits on the account and gets a link (better-auth's token), and the old one stays the login
 * until the link is followed (`confirmEmailVerification`), which ends the other sessions, audits the
 * change and tells the old address. The "email taken" rule is checked again then.
 */
export async function updateProfile(
  db: Db,
  input: {
    userId: string;
    /** The session making the change: it stays signed in. */
    currentSessionId?: string;
    name: string;
    email: string;
    currentPassword?: string;
    /** The client's address (the request context's clientIp), which the login throttle counts by. */
    ip: string;
  },
  limits: { ipPerMinute: number } = { ipPerMinute: LOGIN_IP_ATTEMPT_LIMIT },
  options: {
    /** Mail reaches people (SMTP_URL): a new address is confirmed by a link before it takes effect. */
    confirmWith?: Auth;
  } = {},
): Promise<UpdateProfileResult> {
  const user = await db
    .selectFrom("users")
    .leftJoin("accounts", (join) =>
      join.onRef("accounts.user_id", "=", "users.id").on("accounts.provider_id", "=", "credential"),
    )
    .select(["users.email", "accounts.password"])
    .where("users.id", "=", input.userId)
    .executeTakeFirst();
  const previousEmail = user?.email;
  const emailChanged = previousEmail !== undefined && previousEmail !== input.email;
  if (emailChanged) {
    if (!input.currentPassword)
      return {
        ok: false,
        kind: "invalid",
        error: "dashboard.account.currentPasswordRequired",
        field: "currentPassword",
      };
    const refused = await confirmCurrentPassword(
      db,
      { email: previousEmail, ip: input.ip, hash: user?.password, password: input.currentPassword },
      limits,
    );
    if (refused) return refused;
  }
  // Made before the transaction: better-auth's secret is read once, asynchronously.
  const token =
    emailChanged && options.confirmWith
      ? await makeVerificationToken(options.confirmWith, {
          userId: input.userId,
          email: previousEmail,
          newEmail: input.email,
        })
      : undefined;
  // The unique index caught a race with another account taking the address.
  return orWhenTaken(
    { ok: false, kind: "conflict", error: "dashboard.account.emailTaken", field: "email" },
    () =>
      inTransaction(db, async (trx): Promise<UpdateProfileResult> => {
        const now = new Date().toISOString();
        if (!emailChanged) {
          await trx
            .updateTable("users")
            .set({ name: input.name, updated_at: now })
            .where("id", "=", input.userId)
            .execute();
          return { ok: true, emailChanged: false, sessionsEnded: 0 };
        }
        if (await emailTakenByAnother(trx, input.email, input.userId))
          throw new Refusal<UpdateProfileResult>({
            ok: false,
            kind: "conflict",
            error: "dashboard.account.emailTaken",
            field: "email",
          });
        if (token) {
          await trx
            .updateTable("users")
            .set({ name: input.name, updated_at: now })
            .where("id", "=", input.userId)
            .execute();
          await requestEmailChange(trx, {
            userId: input.userId,
            previousEmail: previousEmail!,
            newEmail: input.email,
            token,
          });
          return { ok: true, emailChanged: false, sessionsEnded: 0, emailPending: input.email };
        }
        await trx
          .updateTable("users")
          // A change still waiting for a link (from when mail was set) is overtaken by this one.
          .set({
            name: input.name,
            email: input.email,
            pending_email: null,
            pending_email_at: null,
            updated_at: now,
          })
          .where("id", "=", input.userId)
          .execute();
        const ended = await endUserSessions(trx, input.userId, input.currentSessionId);
        // No link and no mail: the audit entry is the record the old address is owed (docs/security.md).
        await record(trx, {
          type: "account.emailChanged",
          userId: input.userId,
          oldEmail: previousEmail!,
          newEmail: input.email,
          otherSessionsEnded: ended,
          linkToken: null,
        });
        return { ok: true, emailChanged: true, sessionsEnded: ended };
      }),
  );
}

/** Ends one of the user's own sessions (another user's session id matches nothing). */
export async function endSession(db: Db, userId: string, sessionId: string): Promise<void> {
  await db
    .deleteFrom("sessions")
    .where("id", "=", sessionId)
    .where("user_id", "=", userId)
    .execute();
}
