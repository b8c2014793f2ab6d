import { APIError } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { renderSVG } from "uqr";
import { inTransaction } from "~/db/transaction";
import type { AccountEvent } from "~/domain/events/account-events.server";
import { record } from "~/domain/events/events.server";
import { readCookie } from "~/lib/cookies";
import { LOGIN_IP_ATTEMPT_LIMIT, type Role } from "./accounts";
import {
  clientHeaders,
  reserveSignInAttempt,
  verifiedSessionToken,
  type AccountDeps,
} from "./accounts.server";
import type { Auth } from "./auth.server";
import type { TwoFactorActionInput } from "./two-factor.schemas";
import { confirmCurrentPassword, type CurrentPasswordRefusal } from "./current-password.server";
import { loginAddress, markLoginSucceeded } from "./login-throttle.server";
import { takeTotpStep, totpStepOf } from "./totp.server";
import {
  isTotpCode,
  matchBackupCode,
  mayTrustDevice,
  normalizeTotpCode,
  secretOfTotpUri,
  totpUri,
  type TwoFactorState,
} from "./two-factor";

/**
 * Two-factor sign-in (ADR 0033). better-auth's twoFactor plugin keeps the TOTP secret and the
 * backup codes, encrypted with a key derived from the auth secret, and checks codes; its HTTP handler is
 * not mounted, so these use-cases call its endpoints through `auth.api` with the client's headers, as
 * sign-in does (ADR 0005). The password checks go through the login throttle, and so do the codes of a
 * sign-in.
 */

type Limits = { ipPerMinute: number };
const DEFAULT_LIMITS: Limits = { ipPerMinute: LOGIN_IP_ATTEMPT_LIMIT };

/** The plugin's error code of an APIError ("INVALID_CODE"), or null for anything else. */
function apiErrorCode(error: unknown): string | null {
  if (!(error instanceof APIError)) return null;
  const body = error.body as { code?: unknown } | undefined;
  return typeof body?.code === "string" ? body.code : "UNKNOWN";
}

async function authContext(auth: Auth) {
  return auth.$context;
}

async function decrypt(auth: Auth, data: string): Promise<string> {
  const context = await authContext(auth);
  return symmetricDecrypt({ key: context.secretConfig, data });
}

async function accountOf(deps: AccountDeps, userId: string) {
  return deps.db
    .selectFrom("users")
    .leftJoin("accounts", (join) =>
      join.onRef("accounts.user_id", "=", "users.id").on("accounts.provider_id", "=", "credential"),
    )
    .select([
      "users.email",
      "users.role",
      "users.two_factor_enabled",
      "users.must_change_password",
      "accounts.password as hash",
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
}

async function twoFactorRow(deps: AccountDeps, userId: string) {
  return deps.db
    .selectFrom("two_factors")
    .select(["id", "secret", "backup_codes", "verified"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/**
 * Whether `code` may be checked by the plugin: not a code of a step the account has used already. A
 * code of the accepted steps takes its step first (totp.server.ts), so it works once; any other code
 * goes on to the plugin, which refuses it and counts it towards its lock.
 */
async function codeNotUsedBefore(deps: AccountDeps, userId: string, code: string) {
  const row = await twoFactorRow(deps, userId);
  if (!row) return true;
  const step = totpStepOf(await decrypt(deps.auth, row.secret), code, Date.now());
  return step === null || (await takeTotpStep(deps.db, userId, step));
}

const isOn = (value: boolean | number | null | undefined) => value === true || value === 1;

/** The account's unused backup codes, decrypted (none when there are none, or they cannot be read). */
async function storedBackupCodes(deps: AccountDeps, userId: string): Promise<string[]> {
  const row = await twoFactorRow(deps, userId);
  if (!row) return [];
  try {
    const codes: unknown = JSON.parse(await decrypt(deps.auth, row.backup_codes));
    return Array.isArray(codes) ? codes.filter((code) => typeof code === "string") : [];
  } catch {
    return [];
  }
}

/** A typed backup code as the plugin stored it (case, spaces and the dash aside: matchBackupCode). */
async function backupCodeAsStored(deps: AccountDeps, userId: string, typed: string) {
  return matchBackupCode(typed, await storedBackupCodes(deps, userId));
}

/** What the account tab shows: off, a set-up waiting for its first code (with its QR code), or on. */
export async function loadTwoFactorState(
  deps: AccountDeps,
  userId: string,
): Promise<TwoFactorState> {
  const [account, row] = await Promise.all([accountOf(deps, userId), twoFactorRow(deps, userId)]);
  if (!account || !row) return { status: "off" };
  if (isOn(account.two_factor_enabled) && isOn(row.verified)) {
    // Codes encrypted under another secret cannot be read, nor used: none left.
    return { status: "on", backupCodesLeft: (await storedBackupCodes(deps, userId)).length };
  }
  if (isOn(row.verified)) return { status: "off" };
  let uri: string;
  try {
    uri = totpUri(await decrypt(deps.auth, row.secret), account.email);
  } catch {
    return { status: "off" };
  }
  return { status: "pending", qrSvg: renderSVG(uri), secret: secretOfTotpUri(uri) };
}

export type TwoFactorRefusal =
  | CurrentPasswordRefusal
  | {
      ok: false;
      kind: "invalid";
      error: "dashboard.twoFactor.errors.codeWrong";
      field: "code";
    }
  | {
      ok: false;
      kind: "conflict";
      error:
        | "dashboard.twoFactor.errors.alreadyOn"
        | "dashboard.twoFactor.errors.notOn"
        | "dashboard.twoFactor.errors.noSetup";
    };

const codeWrong = {
  ok: false,
  kind: "invalid",
  error: "dashboard.twoFactor.errors.codeWrong",
  field: "code",
} as const satisfies TwoFactorRefusal;

type Signed = { userId: string; cookie: string; ip: string };

/** The account's password, checked under the sign-in throttle (current-password.server.ts). */
async function passwordRefusal(
  deps: AccountDeps,
  account: { email: string; hash: string | null },
  input: Signed & { password: string },
  limits: Limits,
) {
  return confirmCurrentPassword(
    deps.db,
    { email: account.email, ip: input.ip, hash: account.hash, password: input.password },
    limits,
  );
}

async function sessionTokenOf(auth: Auth, cookie: string | null): Promise<string | null> {
  const context = await authContext(auth);
  const name = context.authCookies.sessionToken.name;
  return verifiedSessionToken(readCookie(cookie, name), context.secret);
}

/** When the session of a Cookie header ends (read before better-auth replaces it). */
async function sessionEnd(deps: AccountDeps, cookie: string) {
  const token = await sessionTokenOf(deps.auth, cookie);
  if (!token) return undefined;
  const row = await deps.db
    .selectFrom("sessions")
    .select("expires_at")
    .where("token", "=", token)
    .executeTakeFirst();
  return row?.expires_at;
}

/**
 * The session better-auth made in place of the request's (turning two-factor on or off signs the
 * session in again) keeps the old one's end: a session's lifetime is fixed at sign-in (ADR 0005).
 */
async function keepSessionEnd(
  deps: AccountDeps,
  end: Awaited<ReturnType<typeof sessionEnd>>,
  setCookies: string[],
) {
  const newToken = await sessionTokenOf(
    deps.auth,
    setCookies.map((cookie) => cookie.split(";")[0]).join("; "),
  );
  if (!end || !newToken) return;
  await deps.db
    .updateTable("sessions")
    .set({ expires_at: end })
    .where("token", "=", newToken)
    .execute();
}

/**
 * Step one of turning two-factor on: the password, then a new secret (and backup codes, shown only once
 * a code has proved the app holds the secret). A set-up left half-way is replaced.
 */
export async function startTwoFactorSetup(
  deps: AccountDeps,
  input: Signed & { password: string },
  limits: Limits = DEFAULT_LIMITS,
): Promise<{ ok: true } | TwoFactorRefusal> {
  const account = await accountOf(deps, input.userId);
  if (!account)
    return {
      ok: false,
      kind: "invalid",
      error: "dashboard.account.currentPasswordWrong",
      field: "currentPassword",
    };
  if (isOn(account.two_factor_enabled))
    return { ok: false, kind: "conflict", error: "dashboard.twoFactor.errors.alreadyOn" };
  const refusal = await passwordRefusal(deps, account, input, limits);
  if (refusal) return refusal;
  try {
    await deps.auth.api.enableTwoFactor({
      body: { password: input.password },
      headers: clientHeaders(input),
    });
  } catch (error) {
    const code = apiErrorCode(error);
    if (code === "TOTP_ALREADY_ENABLED")
      return { ok: false, kind: "conflict", error: "dashboard.twoFactor.errors.alreadyOn" };
    if (code === "INVALID_PASSWORD")
      return {
        ok: false,
        kind: "invalid",
        error: "dashboard.account.currentPasswordWrong",
        field: "currentPassword",
      };
    throw error;
  }
  return { ok: true };
}

/** Drops a set-up that was never confirmed by a code (nothing is on yet, so no password is asked). */
export async function cancelTwoFactorSetup(deps: AccountDeps, userId: string): Promise<void> {
  await deps.db
    .deleteFrom("two_factors")
    .where("user_id", "=", userId)
    .where("verified", "in", [false, 0] as never[])
    .execute();
}

async function backupCodesOf(deps: AccountDeps, userId: string): Promise<string[]> {
  const { backupCodes } = await deps.auth.api.viewBackupCodes({ body: { userId } });
  return backupCodes;
}

/**
 * Step two: a code from the app. Only then is two-factor on; the answer carries the backup codes, to be
 * shown this once, and the cookie of the session better-auth signed in again.
 */
export async function confirmTwoFactorSetup(
  deps: AccountDeps,
  input: Signed & { code: string },
): Promise<{ ok: true; backupCodes: string[]; setCookies: string[] } | TwoFactorRefusal> {
  const account = await accountOf(deps, input.userId);
  const row = await twoFactorRow(deps, input.userId);
  if (!account || !row || isOn(row.verified))
    return {
      ok: false,
      kind: "conflict",
      error: isOn(account?.two_factor_enabled)
        ? "dashboard.twoFactor.errors.alreadyOn"
        : "dashboard.twoFactor.errors.noSetup",
    };
  if (!isTotpCode(input.code)) return codeWrong;
  const end = await sessionEnd(deps, input.cookie);
  let setCookies: string[];
  try {
    const { headers } = await deps.auth.api.verifyTOTP({
      body: { code: normalizeTotpCode(input.code) },
      headers: clientHeaders(input),
      returnHeaders: true,
    });
    setCookies = headers.getSetCookie();
  } catch (error) {
    if (apiErrorCode(error) === "INVALID_CODE") return codeWrong;
    throw error;
  }
  await keepSessionEnd(deps, end, setCookies);
  const backupCodes = await backupCodesOf(deps, input.userId);
  await recordOwn(deps, { type: "account.twoFactorEnabled", userId: input.userId });
  return { ok: true, backupCodes, setCookies };
}

type TwoFactorChange = Extract<
  AccountEvent,
  { type: "account.twoFactorEnabled" | "account.backupCodesRenewed" | "account.twoFactorDisabled" }
>;

/** The user's own change to their two-factor sign-in, recorded (its reaction: the audit entry). */
async function recordOwn(deps: AccountDeps, event: TwoFactorChange) {
  await inTransaction(deps.db, (trx) => record(trx, event));
}

/**
 * What a change to two-factor that is on needs first: it is on, and the password is right (under the
 * throttle). Nothing when both hold, else the refusal to show.
 */
async function onAndPasswordRefusal(
  deps: AccountDeps,
  input: Signed & { password: string },
  limits: Limits,
): Promise<TwoFactorRefusal | undefined> {
  const account = await accountOf(deps, input.userId);
  if (!account || !isOn(account.two_factor_enabled))
    return { ok: false, kind: "conflict", error: "dashboard.twoFactor.errors.notOn" };
  return passwordRefusal(deps, account, input, limits);
}

/** New backup codes for the password; the old ones stop working. */
export async function regenerateBackupCodes(
  deps: AccountDeps,
  input: Signed & { password: string },
  limits: Limits = DEFAULT_LIMITS,
): Promise<{ ok: true; backupCodes: string[] } | TwoFactorRefusal> {
  const refusal = await onAndPasswordRefusal(deps, input, limits);
  if (refusal) return refusal;
  let backupCodes: string[];
  try {
    ({ backupCodes } = await deps.auth.api.generateBackupCodes({
      body: { password: input.password },
      headers: clientHeaders(input),
    }));
  } catch (error) {
    if (apiErrorCode(error) === "TWO_FACTOR_NOT_ENABLED")
      return { ok: false, kind: "conflict", error: "dashboard.twoFactor.errors.notOn" };
    throw error;
  }
  await recordOwn(deps, { type: "account.backupCodesRenewed", userId: input.userId });
  return { ok: true, backupCodes };
}

/**
 * Turns two-factor off: the password (under the throttle), then a code from the app or a backup code,
 * so a session left open and a password seen over a shoulder are not enough.
 */
export async function disableTwoFactor(
  deps: AccountDeps,
  input: Signed & { password: string; code: string },
  limits: Limits = DEFAULT_LIMITS,
): Promise<{ ok: true; setCookies: string[] } | TwoFactorRefusal> {
  const refusal = await onAndPasswordRefusal(deps, input, limits);
  if (refusal) return refusal;
  try {
    if (isTotpCode(input.code))
      await deps.auth.api.verifyTOTP({
        body: { code: normalizeTotpCode(input.code) },
        headers: clientHeaders(input),
      });
    else
      await deps.auth.api.verifyBackupCode({
        body: {
          code: await backupCodeAsStored(deps, input.userId, input.code),
          disableSession: true,
        },
        headers: clientHeaders(input),
      });
  } catch (error) {
    const code = apiErrorCode(error);
    if (code === "INVALID_CODE" || code === "INVALID_BACKUP_CODE" || code === "CONFLICT")
      return codeWrong;
    throw error;
  }
  const end = await sessionEnd(deps, input.cookie);
  const { headers } = await deps.auth.api.disableTwoFactor({
    body: { password: input.password },
    headers: clientHeaders(input),
    returnHeaders: true,
  });
  const setCookies = headers.getSetCookie();
  await keepSessionEnd(deps, end, setCookies);
  await recordOwn(deps, { type: "account.twoFactorDisabled", userId: input.userId });
  return { ok: true, setCookies };
}

const DONE = {
  "two-factor-start": "dashboard.twoFactor.started",
  "two-factor-confirm": "dashboard.twoFactor.enabled",
  "two-factor-cancel": "dashboard.twoFactor.cancelled",
  "two-factor-regenerate": "dashboard.twoFactor.regenerated",
  "two-factor-disable": "dashboard.twoFactor.disabled",
} as const;

export type TwoFactorActionResult =
  | {
      ok: true;
      message: (typeof DONE)[keyof typeof DONE];
      /** New backup codes, to be shown this once. */
      backupCodes?: string[];
      /** The session better-auth signed in again (turned on or off). */
      setCookies: string[];
    }
  | TwoFactorRefusal;

/** The account tab's two-factor card: one of its forms, as parsed, to its use-case. */
export async function twoFactorAccountAction(
  deps: AccountDeps,
  input: TwoFactorActionInput,
  signed: Signed,
  limits: Limits = DEFAULT_LIMITS,
): Promise<TwoFactorActionResult> {
  const done = (result: { backupCodes?: string[]; setCookies?: string[] } = {}) =>
    ({
      ok: true,
      message: DONE[input.intent],
      backupCodes: result.backupCodes,
      setCookies: result.setCookies ?? [],
    }) as const;
  switch (input.intent) {
    case "two-factor-start": {
      const result = await startTwoFactorSetup(
        deps,
        { ...signed, password: input.currentPassword },
        limits,
      );
      return result.ok ? done() : result;
    }
    case "two-factor-confirm": {
      const result = await confirmTwoFactorSetup(deps, { ...signed, code: input.code });
      return result.ok ? done(result) : result;
    }
    case "two-factor-cancel":
      await cancelTwoFactorSetup(deps, signed.userId);
      return done();
    case "two-factor-regenerate": {
      const result = await regenerateBackupCodes(
        deps,
        { ...signed, password: input.currentPassword },
        limits,
      );
      return result.ok ? done(result) : result;
    }
    case "two-factor-disable": {
      const result = await disableTwoFactor(
        deps,
        { ...signed, password: input.currentPassword, code: input.code },
        limits,
      );
      return result.ok ? done(result) : result;
    }
  }
}

// ---- The code step of a sign-in ----

/** The two_factor cookie better-auth set after the password, as its name and its verified value. */
async function challengeCookie(auth: Auth, cookie: string | null) {
  const context = await authContext(auth);
  const name = context.createAuthCookie("two_factor").name;
  const raw = readCookie(cookie, name);
  const identifier = verifiedSessionToken(raw, context.secret);
  return identifier && raw
    ? { name, identifier, header: `${name}=${encodeURIComponent(raw)}` }
    : null;
}

/** The sign-in waiting for its code: whose it is and since when, or null (none, expired, forged). */
async function readChallenge(deps: AccountDeps, cookie: string | null) {
  const found = await challengeCookie(deps.auth, cookie);
  if (!found) return null;
  const row = await deps.db
    .selectFrom("verifications")
    .innerJoin("users", "users.id", "verifications.value")
    .select([
      "verifications.created_at",
      "verifications.expires_at",
      "users.id as user_id",
      "users.email",
      "users.role",
      "users.must_change_password",
    ])
    .where("verifications.identifier", "=", found.identifier)
    .executeTakeFirst();
  if (!row || !(new Date(row.expires_at).getTime() > Date.now())) return null;
  return { ...row, cookieHeader: found.header };
}

/** The code step of the login page, when a sign-in waits for its code: whether to offer trusting the device. */
export async function twoFactorChallenge(
  deps: AccountDeps,
  cookie: string | null,
): Promise<{ trustOffered: boolean } | null> {
  const challenge = await readChallenge(deps, cookie);
  return challenge ? { trustOffered: mayTrustDevice(challenge.role) } : null;
}

export type SignInCodeResult =
  | { ok: true; role: Role; mustChangePassword: boolean; setCookies: string[] }
  /** No sign-in waits for a code (it took over 10 minutes, or too many wrong codes): the password again. */
  | { ok: false; kind: "unauthenticated"; error: "twoFactor.errors.expired" }
  | {
      ok: false;
      kind: "invalid";
      error: "twoFactor.errors.codeWrong" | "twoFactor.errors.backupCodeWrong";
      trustOffered: boolean;
    }
  | {
      ok: false;
      kind: "limited";
      error: "errors.tooManyAttempts";
      minutes: number;
      trustOffered: boolean;
    };

/**
 * The code of a sign-in whose password matched (signIn answered `two-factor`). Each code is an attempt
 * of the login throttle for the account's email from the client's address, recorded as a failure before
 * it is checked, as a password is: wrong codes count towards the same limits. A right one signs in as the
 * password would have (better-auth creates the session, with an admin's shorter life), marks the
 * attempt and the password's attempt succeeded, and, for a customer who asked, trusts the device.
 */
export async function verifySignInCode(
  deps: AccountDeps,
  input: { code: string; method: "totp" | "backup"; trustDevice: boolean },
  client: { ip: string; userAgent?: string | null; cookie: string | null },
  limits: Limits = DEFAULT_LIMITS,
): Promise<SignInCodeResult> {
  const challenge = await readChallenge(deps, client.cookie);
  if (!challenge) return { ok: false, kind: "unauthenticated", error: "twoFactor.errors.expired" };
  const trustOffered = mayTrustDevice(challenge.role);
  const reservation = await reserveSignInAttempt(deps.db, challenge.email, client.ip, limits);
  if (!reservation.ok) return { ...reservation, trustOffered };
  const wrong = {
    ok: false,
    kind: "invalid",
    error:
      input.method === "totp" ? "twoFactor.errors.codeWrong" : "twoFactor.errors.backupCodeWrong",
    trustOffered,
  } as const;
  // Only the two_factor cookie goes: a session cookie beside it would make the plugin check the code
  // against that session's account instead.
  const headers = clientHeaders({ ...client, cookie: challenge.cookieHeader });
  const trustDevice = trustOffered && input.trustDevice;
  let setCookies: string[];
  try {
    if (input.method === "totp") {
      if (!isTotpCode(input.code)) return wrong;
      if (!(await codeNotUsedBefore(deps, challenge.user_id, normalizeTotpCode(input.code))))
        return wrong;
      const answer = await deps.auth.api.verifyTOTP({
        body: { code: normalizeTotpCode(input.code), trustDevice },
        headers,
        returnHeaders: true,
      });
      setCookies = answer.headers.getSetCookie();
    } else {
      const answer = await deps.auth.api.verifyBackupCode({
        body: {
          code: await backupCodeAsStored(deps, challenge.user_id, input.code),
          trustDevice,
        },
        headers,
        returnHeaders: true,
      });
      setCookies = answer.headers.getSetCookie();
    }
  } catch (error) {
    const code = apiErrorCode(error);
    if (code === "INVALID_CODE" || code === "INVALID_BACKUP_CODE" || code === "CONFLICT")
      return wrong;
    if (code === "ACCOUNT_TEMPORARILY_LOCKED")
      return {
        ok: false,
        kind: "limited",
        error: "errors.tooManyAttempts",
        minutes: await lockMinutes(deps, challenge.user_id),
        trustOffered,
      };
    if (code) return { ok: false, kind: "unauthenticated", error: "twoFactor.errors.expired" };
    throw error;
  }
  await markLoginSucceeded(deps.db, reservation.attemptId);
  await markPasswordStepSucceeded(deps, challenge, client.ip);
  return {
    ok: true,
    role: challenge.role === "admin" ? "admin" : "user",
    mustChangePassword: challenge.must_change_password === 1,
    setCookies,
  };
}

/** Whole minutes until the plugin's own lock of the account's codes ends (at least 1). */
async function lockMinutes(deps: AccountDeps, userId: string): Promise<number> {
  const row = await deps.db
    .selectFrom("two_factors")
    .select("locked_until")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  const until = row?.locked_until ? new Date(row.locked_until).getTime() : Date.now();
  return Math.max(1, Math.ceil((until - Date.now()) / 60_000));
}

/**
 * The password's attempt stayed a failure while its code was awaited (an attempt whose outcome never
 * came counts as one); with the code right it was a sign-in after all. It is the newest failure of this
 * email from this address recorded in the minute before better-auth opened the code step.
 */
async function markPasswordStepSucceeded(
  deps: AccountDeps,
  challenge: { email: string; created_at: string | Date },
  ip: string,
) {
  const opened = new Date(challenge.created_at).getTime();
  const row = await deps.db
    .selectFrom("login_attempts")
    .select("id")
    .where("email", "=", challenge.email.trim().toLowerCase())
    .where("ip_address", "=", loginAddress(ip))
    .where("succeeded", "=", 0)
    .where("created_at", "<=", new Date(opened + 1000).toISOString())
    .where("created_at", ">=", new Date(opened - 60_000).toISOString())
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (row) await markLoginSucceeded(deps.db, Number(row.id));
}
