import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { recordReferral } from "~/domain/referrals/referrals.server";
import { APIError } from "better-auth/api";
import { sql, type Kysely } from "kysely";
import { withOwner } from "~/db/customer-rows";
import type { Database } from "~/db/schema";
import { inTransaction } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { readCookie } from "~/lib/cookies";
import { postLedgerEntry } from "~/domain/coins/coins.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import {
  LOGIN_IP_ATTEMPT_LIMIT,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  SEED_ADMIN_COINS,
  type LoginInput,
  type RegisterInput,
  type Role,
} from "./accounts";
import type { Auth } from "./auth.server";
import {
  checkCurrentPassword,
  markLoginSucceeded,
  reserveLoginAttempt,
} from "./login-throttle.server";
import { endUserSessions, touchSession } from "./own-sessions.server";
import { recordSignIn } from "./sign-in-notice.server";
import { sendEmailVerification, verifiedFlag } from "./email-verification.server";
import commonPasswordList from "./common-passwords.json";
import { hashPassword } from "./password-hash.server";
import { staffRoleOf, type StaffRole } from "~/domain/staff/permissions";

export interface AccountDeps {
  db: Kysely<Database>;
  auth: Auth;
}

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  /** What a member of the staff may do (app/domain/staff/permissions.ts); null for a customer. */
  staffRole: StaffRole | null;
  coinBalanceCents: number;
  mustChangePassword: boolean;
  locale: string | null;
  /** A second factor (TOTP) is confirmed for this account: the admin guard may require it. */
  twoFactorEnabled: boolean;
  /** The address is verified (docs/accounts.md); an unverified one may be held back from ordering. */
  emailVerified: boolean;
}

export interface CurrentSession {
  user: SessionUser;
  sessionId: string;
  /**
   * When the person last proved who they are in this session: the sign-in, or a password or code typed
   * again since (sessions.proven_at). The most sensitive staff changes ask again once it is 15 minutes old.
   */
  provenAt: string;
  /** The customer a staff session is viewing the site as, read-only (sessions.viewing_user_id). */
  viewingUserId: string | null;
}

/**
 * The default admin was to be admin@localhost, but better-auth refuses an address without a dot in its
 * domain at sign-in; .localhost is reserved for loopback names (RFC 6761), so the meaning is kept.
 */
export const DEFAULT_ADMIN_EMAIL = "admin@hostfront.localhost";

let commonPasswords: Set<string> | undefined;

/** The 10,000 most common passwords (shipped in the repo, compared without case). */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(commonPasswordList);
  return commonPasswords.has(password.toLowerCase());
}

export function clientHeaders(client: {
  ip: string;
  userAgent?: string | null;
  cookie?: string | null;
}) {
  const headers = new Headers();
  headers.set("x-forwarded-for", client.ip);
  if (client.userAgent) headers.set("user-agent", client.userAgent);
  if (client.cookie) headers.set("cookie", client.cookie);
  return headers;
}

export async function findUserIdByEmail(db: Kysely<Database>, email: string) {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return row?.id;
}

export type RegisterResult =
  /** `verificationSent`: a verification message was queued for the address (with SMTP_URL). */
  | { ok: true; userId: string; verificationSent: boolean }
  /** Registration is switched off (the `registration` setting). */
  | { ok: false; kind: "forbidden"; error: "errors.registrationClosed" }
  | { ok: false; kind: "invalid"; error: "errors.commonPassword" }
  | { ok: false; kind: "conflict"; error: "errors.emailTaken" };

export async function registerCustomer(
  deps: AccountDeps,
  input: RegisterInput,
  options: {
    registrationOpen: boolean;
    /** The language the page was read in: the account's, for what the site sends it (mail). */
    locale?: string;
    /**
     * Queue the verification message (with SMTP_URL, docs/accounts.md). Without mail the account is
     * unverified all the same, and "send the message again" reaches it once SMTP is set.
     */
    sendVerification?: boolean;
    /**
     * The way back the visitor registered from (an order being configured), a path safeRedirect
     * kept: the verification link leads back to it.
     */
    returnTo?: string | null;
    /**
     * The referral code a link left in the visitor's cookie and the address they registered from: the
     * new account is recorded as that customer's referral (docs/referrals.md). A code that is no one's,
     * or the customer's own, is ignored: it never stops a registration.
     */
    referral?: { code: string; address: string | null } | null;
    now?: Date;
  },
): Promise<RegisterResult> {
  if (!options.registrationOpen)
    return { ok: false, kind: "forbidden", error: "errors.registrationClosed" };
  if (isCommonPassword(input.password))
    return { ok: false, kind: "invalid", error: "errors.commonPassword" };
  if (await findUserIdByEmail(deps.db, input.email))
    return { ok: false, kind: "conflict", error: "errors.emailTaken" };
  const result = await deps.auth.api.signUpEmail({
    body: { name: input.name, email: input.email, password: input.password },
  });
  // With auto sign-in off, better-auth answers a duplicate with a made-up user instead of an error
  // (so sign-up cannot probe for accounts). Two sign-ups racing for one address end up here.
  if ((await findUserIdByEmail(deps.db, input.email)) !== result.user.id) {
    return { ok: false, kind: "conflict", error: "errors.emailTaken" };
  }
  // The account's language, and the country the customer chose: their invoices carry its VAT rate
  // from the first one on (docs/invoices.md).
  const chosen = {
    ...(options.locale ? { locale: options.locale } : {}),
    ...(input.country ? { billing_country: input.country } : {}),
  };
  if (Object.keys(chosen).length > 0)
    await deps.db.updateTable("users").set(chosen).where("id", "=", result.user.id).execute();
  if (options.referral)
    await recordReferral(deps.db, {
      referredId: result.user.id,
      code: options.referral.code,
      address: options.referral.address,
      now: options.now,
    });
  // The verification message (docs/accounts.md), in the language just saved.
  const verification = options.sendVerification
    ? await sendEmailVerification(deps, result.user.id, new Date(), {
        returnTo: options.returnTo ?? undefined,
      })
    : { queued: false };
  return { ok: true, userId: result.user.id, verificationSent: verification.queued };
}

export type SignInResult =
  | { ok: true; role: Role; mustChangePassword: boolean; setCookies: string[] }
  | { ok: false; kind: "unauthenticated"; error: "errors.invalidCredentials" }
  | { ok: false; kind: "limited"; error: "errors.tooManyAttempts"; minutes: number }
  /**
   * The password matched an account with two-factor sign-in on: no session yet. `setCookies` carry
   * better-auth's signed two_factor cookie, which the code step (two-factor.server.ts verifySignInCode)
   * needs; the attempt stays a failure until the code is right.
   */
  | { ok: false; kind: "two-factor"; error: "twoFactor.required"; setCookies: string[] };

/**
 * Records a sign-in attempt (a password or the code that follows it) for the email from the client's
 * address before it is checked, or the refusal to show when the login throttle blocks it.
 */
export async function reserveSignInAttempt(
  db: Kysely<Database>,
  email: string,
  ip: string,
  limits: { ipPerMinute: number },
): Promise<
  | { ok: true; attemptId: number }
  | { ok: false; kind: "limited"; error: "errors.tooManyAttempts"; minutes: number }
> {
  const reservation = await reserveLoginAttempt(
    db,
    { email, ip },
    { addressLimit: limits.ipPerMinute },
  );
  if (!reservation.ok)
    return {
      ok: false,
      kind: "limited",
      error: "errors.tooManyAttempts",
      minutes: reservation.minutes,
    };
  return { ok: true, attemptId: reservation.attemptId };
}

/**
 * Signs in through the login throttle (login-throttle.ts): the attempt is checked and recorded in one
 * atomic step before the password is verified (`reserveLoginAttempt`), so sign-ins racing in several
 * server processes never get more password checks than the rule allows; a refused one says how many
 * minutes to wait. Counted from the attempts table, so it holds across restarts and for every process
 * that shares the database.
 */
export async function signIn(
  deps: AccountDeps,
  input: LoginInput,
  client: { ip: string; userAgent?: string | null; cookie?: string | null },
  limits: { ipPerMinute: number } = { ipPerMinute: LOGIN_IP_ATTEMPT_LIMIT },
): Promise<SignInResult> {
  const reservation = await reserveSignInAttempt(deps.db, input.email, client.ip, limits);
  if (!reservation.ok) return reservation;

  try {
    const { headers, response } = await deps.auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: clientHeaders({ ...client, cookie: await trustedDeviceCookie(deps, input, client) }),
      returnHeaders: true,
    });
    // Two-factor on: better-auth answers with its two_factor cookie instead of a session (ADR 0033).
    if ("twoFactorRedirect" in response && response.twoFactorRedirect)
      return {
        ok: false,
        kind: "two-factor",
        error: "twoFactor.required",
        setCookies: headers.getSetCookie(),
      };
    await markLoginSucceeded(deps.db, reservation.attemptId);
    const user = await deps.db
      .selectFrom("users")
      .select(["role", "must_change_password"])
      .where("id", "=", response.user.id)
      .executeTakeFirstOrThrow();
    const notice = { userId: response.user.id, role: user.role, ...client };
    await inTransaction(deps.db, (trx) =>
      recordSignIn(trx, { ...notice, attemptId: reservation.attemptId }),
    );
    return {
      ok: true,
      role: user.role as Role,
      mustChangePassword: user.must_change_password === 1,
      setCookies: headers.getSetCookie(),
    };
  } catch (error) {
    // The attempt stays recorded as a failure, whatever went wrong.
    if (!(error instanceof APIError)) throw error;
    return { ok: false, kind: "unauthenticated", error: "errors.invalidCredentials" };
  }
}

/**
 * The only cookie a sign-in hands better-auth: its trust_device cookie, which skips the code of an account
 * with two-factor on for 30 days. An admin's is never handed over, so an admin always gives a code, even
 * from a device trusted while the account was a customer's (ADR 0033).
 */
async function trustedDeviceCookie(
  deps: AccountDeps,
  input: { email: string },
  client: { cookie?: string | null },
): Promise<string | null> {
  if (!client.cookie) return null;
  const context = await deps.auth.$context;
  const name = context.createAuthCookie("trust_device").name;
  const value = readCookie(client.cookie, name);
  if (!value) return null;
  const user = await deps.db
    .selectFrom("users")
    .select("role")
    .where("email", "=", input.email.trim().toLowerCase())
    .executeTakeFirst();
  if (!user || user.role === "admin") return null;
  return `${name}=${encodeURIComponent(value)}`;
}

export async function signOut(deps: AccountDeps, cookie: string | null): Promise<string[]> {
  if (!cookie) return [];
  try {
    const { headers } = await deps.auth.api.signOut({
      headers: clientHeaders({ ip: "", cookie }),
      returnHeaders: true,
    });
    return headers.getSetCookie();
  } catch {
    return [];
  }
}

/**
 * The session a request's cookie names, with its user, or null. better-auth wrote the cookie and the
 * session row; reading them back is ours: its `getSession` runs its whole endpoint machinery (a Fetch
 * Request, the Web Crypto API's asynchronous HMAC, its adapter's output transforms, then our own query of
 * the user) for about 1 ms of CPU, on every signed-in request. Here it is one synchronous HMAC check and
 * one query, with the same rules: the cookie's signature must be the one better-auth made with our
 * secret (`token.base64(HMAC-SHA256(secret, token))`), the session must exist and not have expired
 * (sessions are never refreshed, ADR 0005), and the account must be active.
 */
export async function getCurrentSession(
  deps: AccountDeps,
  cookie: string | null,
): Promise<CurrentSession | null> {
  if (!cookie || !cookie.includes("hostfront")) return null;
  const settings = await sessionCookieSettings(deps.auth);
  const token = verifiedSessionToken(readCookie(cookie, settings.name), settings.secret);
  if (!token) return null;
  const row = await withOwner(deps.db, "sessions")
    .select([
      "sessions.id as session_id",
      "sessions.expires_at",
      "sessions.updated_at",
      "sessions.created_at as session_created_at",
      "sessions.proven_at",
      "sessions.viewing_user_id",
      "users.id",
      "users.name",
      "users.email",
      "users.role",
      "users.staff_role",
      "users.coin_balance_cents",
      "users.must_change_password",
      "users.locale",
      "users.status",
      "users.two_factor_enabled",
      "users.email_verified",
    ])
    .where("sessions.token", "=", token)
    .executeTakeFirst();
  if (!row || row.status !== "active") return null;
  if (!(new Date(row.expires_at).getTime() > Date.now())) return null;
  await touchSession(deps.db, { id: row.session_id, updatedAt: row.updated_at });
  const admin = row.role === "admin";
  return {
    sessionId: row.session_id,
    provenAt:
      row.proven_at && row.proven_at > row.session_created_at
        ? row.proven_at
        : row.session_created_at,
    viewingUserId: admin ? row.viewing_user_id : null,
    user: {
      id: row.id,
      name: row.name,
      email: row.email,
      role: admin ? "admin" : "user",
      // A staff account whose role is missing or unknown holds no permission until an owner sets one.
      staffRole: admin ? staffRoleOf(row.staff_role) : null,
      coinBalanceCents: row.coin_balance_cents,
      mustChangePassword: row.must_change_password === 1,
      locale: row.locale,
      // A boolean on PostgreSQL, 0 or 1 on SQLite.
      twoFactorEnabled: Boolean(row.two_factor_enabled),
      emailVerified: row.email_verified === true || row.email_verified === 1,
    },
  };
}

const cookieSettings = new WeakMap<Auth, Promise<{ name: string; secret: string }>>();

/** The session cookie's name ("__Secure-" in front over HTTPS) and the signing secret, as better-auth has them. */
function sessionCookieSettings(auth: Auth): Promise<{ name: string; secret: string }> {
  let settings = cookieSettings.get(auth);
  if (!settings) {
    settings = auth.$context.then((context) => ({
      name: context.authCookies.sessionToken.name,
      secret: context.secret,
    }));
    cookieSettings.set(auth, settings);
  }
  return settings;
}

/** The token of a signed session cookie's value, or null when it is not signed with this secret. */
export function verifiedSessionToken(value: string | null, secret: string): string | null {
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  // A SHA-256 HMAC is 32 bytes: 44 characters of padded base64, as better-call writes and requires.
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const given = Buffer.from(signature, "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return token;
}

export type ChangePasswordResult =
  | { ok: true; setCookies: string[] }
  | { ok: false; kind: "invalid"; error: "errors.currentPasswordWrong" | "errors.commonPassword" }
  | { ok: false; kind: "limited"; error: "errors.tooManyAttempts"; minutes: number };

/**
 * Changes the password, ends every other session and lifts a "change at first login" flag. better-auth
 * checks the current password; that check goes through the login throttle (`checkCurrentPassword`) from
 * the client's address, like a sign-in to the account's email, so a stolen session cannot guess it here
 * without limit.
 */
export async function changePassword(
  deps: AccountDeps,
  input: {
    userId: string;
    cookie: string;
    currentPassword: string;
    newPassword: string;
    /** The client's address (the request context's clientIp), which the login throttle counts by. */
    ip: string;
  },
  limits: { ipPerMinute: number } = { ipPerMinute: LOGIN_IP_ATTEMPT_LIMIT },
): Promise<ChangePasswordResult> {
  if (isCommonPassword(input.newPassword))
    return { ok: false, kind: "invalid", error: "errors.commonPassword" };
  const user = await deps.db
    .selectFrom("users")
    .select("email")
    .where("id", "=", input.userId)
    .executeTakeFirst();
  if (!user) return { ok: false, kind: "invalid", error: "errors.currentPasswordWrong" };
  let setCookies: string[] = [];
  const checked = await checkCurrentPassword(
    deps.db,
    { email: user.email, ip: input.ip },
    { addressLimit: limits.ipPerMinute },
    async () => {
      try {
        const { headers } = await deps.auth.api.changePassword({
          body: {
            currentPassword: input.currentPassword,
            newPassword: input.newPassword,
            revokeOtherSessions: true,
          },
          headers: clientHeaders({ ip: input.ip, cookie: input.cookie }),
          returnHeaders: true,
        });
        setCookies = headers.getSetCookie();
        return true;
      } catch (error) {
        if (error instanceof APIError) return false;
        throw error;
      }
    },
  );
  if (checked.outcome === "blocked")
    return {
      ok: false,
      kind: "limited",
      error: "errors.tooManyAttempts",
      minutes: checked.minutes,
    };
  if (checked.outcome === "wrong")
    return { ok: false, kind: "invalid", error: "errors.currentPasswordWrong" };
  await deps.db
    .updateTable("users")
    .set({ must_change_password: 0, updated_at: new Date().toISOString() })
    .where("id", "=", input.userId)
    .execute();
  return { ok: true, setCookies };
}

const PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

export function generatePassword(length = 20): string {
  let out = "";
  for (let i = 0; i < length; i++) out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

async function setPassword(db: Kysely<Database>, userId: string, password: string) {
  const now = new Date().toISOString();
  await db
    .updateTable("accounts")
    .set({ password: await hashPassword(password), updated_at: now })
    .where("user_id", "=", userId)
    .where("provider_id", "=", "credential")
    .execute();
}

export type AdminProvisionResult =
  | { status: "created"; email: string; generatedPassword?: string }
  | { status: "promoted"; email: string; sessionsEnded: number }
  | { status: "already"; email: string };

/**
 * Makes `email` an admin with the Owner role (the command line and the first start are the operator): creates the account when it does not exist (with `password`, or a random
 * one that must be changed at first login), or promotes an existing customer. A promotion is what the
 * admin page does for a role change: the customer's sessions end (they sign in again and get an admin's
 * 12-hour session instead of keeping a 30-day one) and a `user.update` audit entry is written, its actor
 * empty since no account acted and `via` (the command or setting) as its reason.
 */
export async function provisionAdmin(
  deps: AccountDeps,
  input: {
    email: string;
    password?: string;
    name?: string;
    /** What made the change, for the audit entry of a promotion ("npm run admin -- create"). */
    via?: string;
  },
): Promise<AdminProvisionResult> {
  const email = input.email.trim().toLowerCase();
  const now = new Date().toISOString();
  const existing = await findUserIdByEmail(deps.db, email);
  if (existing) {
    return inTransaction(deps.db, async (trx): Promise<AdminProvisionResult> => {
      // Conditional: of two promotions at once, one changes the role and audits it.
      const promoted = await trx
        .updateTable("users")
        .set({ role: "admin", staff_role: "owner", updated_at: now })
        .where("id", "=", existing)
        .where("role", "!=", "admin")
        .executeTakeFirst();
      if (Number(promoted.numUpdatedRows) === 0) return { status: "already", email };
      const sessionsEnded = await endUserSessions(trx, existing);
      await record(trx, {
        type: "account.promotedToAdmin",
        userId: existing,
        via: input.via ?? "",
      });
      return { status: "promoted", email, sessionsEnded };
    });
  }
  const generatedPassword = input.password ? undefined : generatePassword();
  const password = input.password ?? generatedPassword!;
  const created = await deps.auth.api.signUpEmail({
    body: { name: input.name ?? "Administrator", email, password },
  });
  await deps.db
    .updateTable("users")
    .set({
      role: "admin",
      staff_role: "owner",
      must_change_password: generatedPassword ? 1 : 0,
      // Made by the operator, never by the address's owner following a link: nothing to verify.
      email_verified: verifiedFlag(deps.db, true),
      updated_at: now,
    })
    .where("id", "=", created.user.id)
    .execute();
  return { status: "created", email, generatedPassword };
}

/** Sets a random password that must be changed at next login, and ends the user's sessions. */
export async function resetPassword(deps: AccountDeps, email: string): Promise<string | null> {
  const userId = await findUserIdByEmail(deps.db, email);
  if (!userId) return null;
  const password = generatePassword();
  await deps.db.transaction().execute(async (trx) => {
    await setPassword(trx, userId, password);
    await trx
      .updateTable("users")
      .set({ must_change_password: 1, updated_at: new Date().toISOString() })
      .where("id", "=", userId)
      .execute();
    await endUserSessions(trx, userId);
  });
  return password;
}

export async function adminCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select(sql<number>`count(*)`.as("count"))
    .where("role", "=", "admin")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * At start: when no admin exists, create one from ADMIN_EMAIL/ADMIN_PASSWORD, or admin@localhost with a
 * random password. Returns what happened so the caller can log the generated password once. A password
 * that is to create the account passes the register form's rules (length, not a common password); it is
 * refused, creating nothing, rather than giving the panel a guessable admin. Once an admin exists the
 * password is never looked at, so an install running with one is not stopped by a rule added later.
 */
export async function ensureFirstAdmin(
  deps: AccountDeps,
  config: { email?: string; password?: string },
): Promise<AdminProvisionResult | FirstAdminRefusal | null> {
  if ((await adminCount(deps.db)) > 0) return null;
  const email = config.email ?? DEFAULT_ADMIN_EMAIL;
  if (config.password !== undefined && !(await findUserIdByEmail(deps.db, email))) {
    const refusal = firstAdminPasswordRefusal(config.password);
    if (refusal) return { status: "refused", reason: refusal };
  }
  const result = await provisionAdmin(deps, {
    email,
    password: config.password,
    via: "ADMIN_EMAIL",
  });
  // The seed admin's opening balance (spec section 9), through the ledger like every coin.
  const adminId = await findUserIdByEmail(deps.db, result.email);
  if (adminId && result.status === "created") {
    await deps.db.transaction().execute((trx) =>
      postLedgerEntry(trx, {
        userId: adminId,
        amountCents: SEED_ADMIN_COINS * 100,
        kind: "admin_adjustment",
        reason: ledgerReason("seedAdmin"),
      }),
    );
  }
  return result;
}

export interface FirstAdminRefusal {
  status: "refused";
  /** Why ADMIN_PASSWORD cannot create the first admin, for the operator (not translated). */
  reason: string;
}

/** The register form's rules for a new password, worded for the operator who set ADMIN_PASSWORD. */
function firstAdminPasswordRefusal(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (isCommonPassword(password))
    return "is one of the 10,000 most common passwords, which the register form refuses too; choose another";
  return null;
}

export async function setUserLocale(db: Kysely<Database>, userId: string, locale: string) {
  await db.updateTable("users").set({ locale }).where("id", "=", userId).execute();
}
