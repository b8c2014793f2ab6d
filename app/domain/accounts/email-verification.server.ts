import { randomUUID } from "node:crypto";
import { APIError, createEmailVerificationToken } from "better-auth/api";
import { verifyJWT } from "better-auth/crypto";
import { isPostgres } from "~/db/dialect";
import { inTransaction, orWhenTaken, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { countFormPost } from "~/domain/request-limits/request-limits.server";
import { safeRedirect } from "./accounts";
import type { Auth } from "./auth.server";
import {
  EMAIL_VERIFICATION_HOURS,
  VERIFY_EMAIL_PATH,
  VERIFY_RESEND_PER_ACCOUNT,
  VERIFY_RESEND_PER_ADDRESS,
  type VerifyEmailOutcome,
} from "./email-verification";
import { emailTakenByAnother } from "./user-directory.server";
import { queuePanelUserSync } from "~/domain/provisioning/panel-user-job.server";
import { endUserSessions } from "./own-sessions.server";

// Verified addresses (docs/accounts.md). The links carry better-auth's own verification token
// (createEmailVerificationToken: a JWT signed with AUTH_SECRET, holding the address, the account and, for an
// email change, the new address), so nothing of ours stores a secret. They lead to our page, /verify-email,
// since better-auth's handler is not mounted (ADR 5). A new account's link is checked and applied by
// better-auth's `auth.api.verifyEmail`; an email change is applied here, in one transaction with its audit
// entry, the end of the other sessions and the notice to the old address, which better-auth's endpoint
// cannot share (it writes through its own connection, and would change the address before we could check
// that another account has not taken it meanwhile).

export interface VerificationDeps {
  db: Db;
  auth: Auth;
}

const isTrue = (flag: boolean | number | null | undefined) => flag === true || flag === 1;

/** better-auth's `email_verified` as each database stores it: a boolean, or 0/1 on SQLite. */
export function verifiedFlag(db: Db | Tx, verified: boolean): boolean | number {
  if (isPostgres(db)) return verified;
  return verified ? 1 : 0;
}

async function secretOf(auth: Auth): Promise<string> {
  return (await auth.$context).secret;
}

/**
 * better-auth's verification token for `email` (the account's present address), valid
 * EMAIL_VERIFICATION_HOURS. With `newEmail` it is an email change's, as better-auth's change-email flow
 * makes it (`updateTo`, "change-email-verification"). `returnTo`, a new account's way back (an order
 * being configured), is signed into the token with the rest, so a link cannot be altered to lead
 * elsewhere; better-auth ignores the claim.
 */
export async function makeVerificationToken(
  auth: Auth,
  claims: { userId: string; email: string; newEmail?: string; returnTo?: string },
): Promise<string> {
  const returnTo = claims.returnTo ? safeRedirect(claims.returnTo, "") : "";
  return createEmailVerificationToken(
    await secretOf(auth),
    claims.email,
    claims.newEmail,
    EMAIL_VERIFICATION_HOURS * 60 * 60,
    claims.newEmail
      ? { userId: claims.userId, requestType: "change-email-verification" }
      : { userId: claims.userId, ...(returnTo ? { returnTo } : {}) },
  );
}

/** What a token says, read without checking it (that comes next): which flow it belongs to, its expiry. */
interface TokenClaims {
  email: string;
  userId?: string;
  updateTo?: string;
  returnTo?: string;
  exp?: number;
}

function claimsOf(token: string): TokenClaims | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
    if (!payload || typeof payload !== "object") return null;
    const { email, userId, updateTo, returnTo, exp } = payload as Record<string, unknown>;
    if (typeof email !== "string") return null;
    return {
      email,
      userId: typeof userId === "string" ? userId : undefined,
      updateTo: typeof updateTo === "string" ? updateTo : undefined,
      returnTo: typeof returnTo === "string" ? returnTo : undefined,
      exp: typeof exp === "number" ? exp : undefined,
    };
  } catch {
    return null;
  }
}

/**
 * A step: a verification link was made for the account's address; its message is queued, one per call
 * (its own `sendKey`).
 */
async function recordVerification(
  trx: Tx,
  input: { userId: string; token: string },
  now: Date,
): Promise<void> {
  await record(
    trx,
    { type: "account.verificationRequested", ...input, sendKey: randomUUID() },
    now,
  );
}

/**
 * A new account's verification message (registerCustomer calls it once the account exists). Nothing for
 * an account already verified. Without SMTP_URL the message is kept in the outbox like any other.
 */
export async function sendEmailVerification(
  deps: VerificationDeps,
  userId: string,
  now = new Date(),
  options: { returnTo?: string } = {},
): Promise<{ queued: boolean }> {
  const user = await deps.db
    .selectFrom("users")
    .select(["email", "email_verified"])
    .where("id", "=", userId)
    .where("status", "=", "active")
    .executeTakeFirst();
  if (!user || isTrue(user.email_verified)) return { queued: false };
  const token = await makeVerificationToken(deps.auth, {
    userId,
    email: user.email,
    returnTo: options.returnTo,
  });
  await inTransaction(deps.db, (trx) => recordVerification(trx, { userId, token }, now));
  // The account was read active above: its message is queued (mail kept without SMTP_URL is too).
  return { queued: true };
}

export type ResendVerificationResult =
  | { ok: true; email: string }
  | { ok: false; kind: "conflict"; error: "auth.verify.alreadyVerified" }
  | { ok: false; kind: "limited"; error: "auth.verify.tooMany"; seconds: number };

/**
 * "Send the message again" (the dashboard's notice, /verify-email): a new link to the account's address,
 * the earlier ones staying valid until they expire. Limited with the form rate windows (migration 0017):
 * VERIFY_RESEND_PER_ADDRESS a minute from one address and VERIFY_RESEND_PER_ACCOUNT for one account from
 * any address, so nobody can make the site mail an address over and over.
 */
export async function resendEmailVerification(
  deps: VerificationDeps,
  input: { userId: string; ip: string },
  now = new Date(),
): Promise<ResendVerificationResult> {
  const user = await deps.db
    .selectFrom("users")
    .select(["email", "email_verified"])
    .where("id", "=", input.userId)
    .executeTakeFirst();
  if (!user || isTrue(user.email_verified))
    return { ok: false, kind: "conflict", error: "auth.verify.alreadyVerified" };
  const limits = [
    await countFormPost(
      deps.db,
      { ip: input.ip, form: VERIFY_EMAIL_PATH, limit: VERIFY_RESEND_PER_ADDRESS },
      now,
    ),
    await countFormPost(
      deps.db,
      // Counted under the account rather than an address: one row per account and slot.
      {
        ip: "account",
        form: `${VERIFY_EMAIL_PATH}/${input.userId}`,
        limit: VERIFY_RESEND_PER_ACCOUNT,
      },
      now,
    ),
  ];
  const refused = limits.filter((decision) => !decision.allowed);
  if (refused.length > 0) {
    const until = Math.max(...refused.map((decision) => decision.resetAt.getTime()));
    return {
      ok: false,
      kind: "limited",
      error: "auth.verify.tooMany",
      seconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)),
    };
  }
  const token = await makeVerificationToken(deps.auth, { userId: input.userId, email: user.email });
  await inTransaction(deps.db, (trx) =>
    recordVerification(trx, { userId: input.userId, token }, now),
  );
  return { ok: true, email: user.email };
}

/**
 * A step of an email change with SMTP configured (updateProfile): the new address waits on the account
 * (`pending_email`) and gets a link; the login stays the old one until the link is followed. A second
 * request replaces the first, whose link then no longer works.
 */
export async function requestEmailChange(
  trx: Tx,
  input: { userId: string; previousEmail: string; newEmail: string; token: string },
  now = new Date(),
): Promise<void> {
  await trx
    .updateTable("users")
    .set({ pending_email: input.newEmail, pending_email_at: now.toISOString() })
    .where("id", "=", input.userId)
    .execute();
  await record(
    trx,
    {
      type: "account.emailChangeRequested",
      userId: input.userId,
      previousEmail: input.previousEmail,
      newEmail: input.newEmail,
      token: input.token,
      sendKey: randomUUID(),
    },
    now,
  );
}

/** The account tab's "cancel": the waiting new address is forgotten, and its link stops working. */
export async function cancelEmailChange(db: Db, userId: string): Promise<{ ok: true }> {
  await db
    .updateTable("users")
    .set({ pending_email: null, pending_email_at: null })
    .where("id", "=", userId)
    .execute();
  return { ok: true };
}

export interface ConfirmEmailResult {
  outcome: VerifyEmailOutcome;
  /** The address now verified (or the login, after a change). */
  email?: string;
  /**
   * A new account's way back that the link carries (an order being configured): a local path, checked
   * again here (safeRedirect) though the token is signed.
   */
  returnTo?: string;
}

/**
 * /verify-email: follows a link. A new account's token is checked and applied by better-auth
 * (`auth.api.verifyEmail`); a link followed again says the address is verified already. An email change's
 * token applies only while it is the change the account waits for (a newer request or a cancel voids it)
 * and its new address is still free: then, in one transaction, the address becomes the login (verified,
 * since the link reached it), every other session of the account ends (the browser that followed the link
 * keeps its own, when it is the account's), an audit entry is written and the old address is told.
 */
export async function confirmEmailVerification(
  deps: VerificationDeps,
  input: {
    token: string;
    /** The session of the browser that followed the link, if signed in (it stays signed in). */
    session?: { userId: string; sessionId: string } | null;
  },
  now = new Date(),
): Promise<ConfirmEmailResult> {
  const claims = claimsOf(input.token);
  if (!claims?.userId) return { outcome: "invalid" };
  const checked = await verifyJWT(input.token, await secretOf(deps.auth));
  if (!checked) {
    const expired = claims.exp !== undefined && claims.exp * 1000 <= now.getTime();
    return { outcome: expired ? "expired" : "invalid" };
  }
  if (claims.updateTo) return applyEmailChange(deps, { ...input, claims, now });

  const user = await deps.db
    .selectFrom("users")
    .select(["email", "email_verified", "status"])
    .where("id", "=", claims.userId)
    .executeTakeFirst();
  // The account's address changed since the link was sent: it no longer verifies anything.
  if (!user || user.status !== "active" || user.email !== claims.email.toLowerCase())
    return { outcome: "invalid" };
  const returnTo = safeRedirect(claims.returnTo, "") || undefined;
  if (isTrue(user.email_verified))
    return { outcome: "alreadyVerified", email: user.email, returnTo };
  try {
    await deps.auth.api.verifyEmail({ query: { token: input.token } });
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    return { outcome: error.body?.code === "TOKEN_EXPIRED" ? "expired" : "invalid" };
  }
  return { outcome: "verified", email: user.email, returnTo };
}

async function applyEmailChange(
  deps: VerificationDeps,
  input: {
    token: string;
    claims: TokenClaims;
    session?: { userId: string; sessionId: string } | null;
    now: Date;
  },
): Promise<ConfirmEmailResult> {
  const userId = input.claims.userId!;
  const oldEmail = input.claims.email.toLowerCase();
  const newEmail = input.claims.updateTo!.toLowerCase();
  // The unique index caught another account taking the address at the same moment.
  return orWhenTaken({ outcome: "emailTaken" }, () =>
    inTransaction(deps.db, async (trx): Promise<ConfirmEmailResult> => {
      const user = await trx
        .selectFrom("users")
        .select(["email", "pending_email", "status"])
        .where("id", "=", userId)
        .executeTakeFirst();
      if (!user || user.status !== "active") return { outcome: "invalid" };
      if (user.email === newEmail) return { outcome: "alreadyVerified", email: newEmail };
      if (user.email !== oldEmail || user.pending_email !== newEmail) return { outcome: "invalid" };
      if (await emailTakenByAnother(trx, newEmail, userId)) return { outcome: "emailTaken" };
      const at = input.now.toISOString();
      // Conditional on the address the link was made for: of two clicks at once, one changes it.
      const changed = await trx
        .updateTable("users")
        .set({
          email: newEmail,
          email_verified: verifiedFlag(trx, true),
          pending_email: null,
          pending_email_at: null,
          updated_at: at,
        })
        .where("id", "=", userId)
        .where("email", "=", oldEmail)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) return { outcome: "invalid" };
      // The game panel's user follows the new address.
      await queuePanelUserSync(trx, userId, input.now);
      const keep = input.session?.userId === userId ? input.session.sessionId : undefined;
      const ended = await endUserSessions(trx, userId, keep);
      await record(
        trx,
        {
          type: "account.emailChanged",
          userId,
          oldEmail,
          newEmail,
          otherSessionsEnded: ended,
          linkToken: input.token,
        },
        input.now,
      );
      return { outcome: "changed", email: newEmail };
    }),
  );
}

export type UnverifiedEmailRefusal = {
  ok: false;
  kind: "forbidden";
  error: "auth.verify.required";
  /** The page shows the way to verify (the notice and its "send again"). */
  verifyEmail: true;
};

/**
 * The gate of ordering, opening a ticket and asking for coins: while `required` (the setting, with SMTP
 * configured: `verifiedEmailRequired`), an account whose address is not verified is refused. Admins never
 * are. Nothing (undefined) when the account may go on.
 */
export async function unverifiedEmailRefusal(
  db: Db | Tx,
  userId: string,
  required: boolean | undefined,
): Promise<UnverifiedEmailRefusal | undefined> {
  if (!required) return undefined;
  const user = await db
    .selectFrom("users")
    .select(["email_verified", "role"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user || user.role === "admin" || isTrue(user.email_verified)) return undefined;
  return { ok: false, kind: "forbidden", error: "auth.verify.required", verifyEmail: true };
}
