import { setTimeout as sleep } from "node:timers/promises";
import { APIError } from "better-auth/api";
import { inTransaction } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { isCommonPassword, type AccountDeps } from "./accounts.server";
import { endUserSessions, forgetTrustedDevices } from "./own-sessions.server";
import { capturingPasswordReset, RESET_IDENTIFIER_PREFIX } from "./auth.server";
import {
  isResetToken,
  RESET_EMAIL_WINDOW_MINUTES,
  RESET_MAILS_PER_EMAIL,
  RESET_REQUEST_MIN_MS,
} from "./password-reset";

// Password reset by mail (ADR 0034). better-auth makes the token, keeps it (its verifications
// table, an hour, used once), checks it and sets the password, ending every session; we call its API
// from our own pages and record what happened (its reactions: the mails and the audit entry).

/** What /forgot-password answers, whatever happened: the same for every address. */
export type PasswordResetRequestResult = { ok: true };

/**
 * Asks for a reset link for `email`. An active account under the per-email limit gets a token from
 * better-auth's `requestPasswordReset` and a `passwordReset` mail with a link to /reset-password; an
 * unknown, inactive or limited one gets nothing. Either way the answer is the same and comes no sooner
 * than `minMs` after the call began, so neither the answer nor its time tells whether the account exists.
 */
export async function requestPasswordReset(
  deps: AccountDeps,
  input: { email: string },
  options: {
    now?: Date;
    minMs?: number;
    /**
     * The clock the answer's time is measured on, in milliseconds, and the wait that pads it to
     * `minMs` (default: the wall clock and a timer). A test passes its own to see the wait asked for.
     */
    clock?: () => number;
    wait?: (ms: number) => Promise<unknown>;
  } = {},
): Promise<PasswordResetRequestResult> {
  const clock = options.clock ?? Date.now;
  const started = clock();
  try {
    await sendResetLink(deps, input.email.trim().toLowerCase(), options.now);
  } finally {
    const left = (options.minMs ?? RESET_REQUEST_MIN_MS) - (clock() - started);
    if (left > 0) await (options.wait ?? sleep)(left);
  }
  return { ok: true };
}

async function sendResetLink(deps: AccountDeps, email: string, now = new Date()) {
  const user = await deps.db
    .selectFrom("users")
    .select(["id", "status"])
    .where("email", "=", email)
    .executeTakeFirst();
  if (!user || user.status !== "active") return;
  const since = new Date(now.getTime() - RESET_EMAIL_WINDOW_MINUTES * 60_000).toISOString();
  const recent = await deps.db
    .selectFrom("mail_outbox")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", user.id)
    .where("kind", "=", "passwordReset")
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  if (Number(recent.count) >= RESET_MAILS_PER_EMAIL) return;
  const { captured } = await capturingPasswordReset(() =>
    deps.auth.api.requestPasswordReset({ body: { email } }),
  );
  const requested = captured.requested;
  if (!requested) return;
  await inTransaction(deps.db, (trx) =>
    record(
      trx,
      { type: "account.passwordResetRequested", userId: requested.userId, token: requested.token },
      now,
    ),
  );
}

/**
 * Whether a reset link still works (the page shows its form, or says to ask again): better-auth's record
 * of the token, not expired. Nothing is used up.
 */
export async function resetLinkWorks(deps: AccountDeps, token: string): Promise<boolean> {
  if (!isResetToken(token)) return false;
  const context = await deps.auth.$context;
  const verification = await context.internalAdapter.findVerificationValue(
    `${RESET_IDENTIFIER_PREFIX}${token}`,
  );
  return !!verification && new Date(verification.expiresAt).getTime() > Date.now();
}

export type ResetPasswordResult =
  | { ok: true; userId: string }
  | { ok: false; kind: "invalid"; error: "errors.commonPassword" | "errors.resetLinkInvalid" };

/**
 * Sets a new password from a reset link, through better-auth's `resetPassword`: the token is used up
 * (a second use, or one after the hour, is refused), every session of the account ends, and so do
 * every other reset link of the account and every device it trusted to skip its sign-in code. Then, in one
 * transaction: the "change at first login" flag is lifted (the owner chose this password), any session
 * made while better-auth worked is ended too, the audit entry is written and the `passwordChanged`
 * notice queued.
 */
export async function resetPasswordWithToken(
  deps: AccountDeps,
  input: { token: string; newPassword: string; ip?: string; now?: Date },
): Promise<ResetPasswordResult> {
  if (!isResetToken(input.token))
    return { ok: false, kind: "invalid", error: "errors.resetLinkInvalid" };
  if (isCommonPassword(input.newPassword))
    return { ok: false, kind: "invalid", error: "errors.commonPassword" };
  let userId: string | undefined;
  try {
    const { captured } = await capturingPasswordReset(() =>
      deps.auth.api.resetPassword({
        body: { token: input.token, newPassword: input.newPassword },
      }),
    );
    userId = captured.reset?.userId;
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
  }
  if (!userId) return { ok: false, kind: "invalid", error: "errors.resetLinkInvalid" };
  const resetUser = userId;
  const now = input.now ?? new Date();
  await inTransaction(deps.db, async (trx) => {
    await trx
      .updateTable("users")
      .set({ must_change_password: 0, updated_at: now.toISOString() })
      .where("id", "=", resetUser)
      .execute();
    await endUserSessions(trx, resetUser);
    await forgetTrustedDevices(trx, resetUser);
    // Every other reset link of the account ends with this one: a link asked for earlier (or a copy
    // of the mail read by someone else) must not set the password again after the owner's reset.
    await trx
      .deleteFrom("verifications")
      .where("identifier", "like", `${RESET_IDENTIFIER_PREFIX}%`)
      .where("value", "=", resetUser)
      .execute();
    await record(
      trx,
      {
        type: "account.passwordReset",
        userId: resetUser,
        token: input.token,
        ip: input.ip ?? null,
        at: now.toISOString(),
      },
      now,
    );
  });
  return { ok: true, userId: resetUser };
}
