import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { sql } from "kysely";
import { LOGIN_EMAIL_WINDOW_MINUTES, LOGIN_IP_ATTEMPT_LIMIT } from "~/domain/accounts/accounts";
import type { AccountDeps } from "~/domain/accounts/accounts.server";
import { latestOf, liftKeysFor, minutesUntil, pairKey } from "~/domain/accounts/login-throttle";
import {
  attemptsOf,
  iso,
  lastLifts,
  loginAddress,
  markLoginSucceeded,
  reserveLoginAttempt,
} from "~/domain/accounts/login-throttle.server";
import { verifyPassword } from "~/domain/accounts/password-hash.server";
import { takeTotpStep, totpStepOf } from "~/domain/accounts/totp.server";
import { matchBackupCode, normalizeTotpCode } from "~/domain/accounts/two-factor";
import type { Db } from "~/db/transaction";
import { PROOF_FAILURE_LIMIT, proofBlockEnd, proofChecks, type ProofMethod } from "./fresh-proof";

/**
 * Checking a fresh proof of identity (fresh-proof.ts has the rules). A proof is one sign-in attempt of
 * the account's email from the client's address, reserved through the login throttle before anything
 * is compared and recorded as a failure until it matched, as the sign-in and the account tab's
 * current-password check record theirs: a wrong proof is a failed sign-in on /admin/security and counts
 * towards the same blocks, and the prompt's own limit (`proofBlockEnd`) counts it too. Nothing else is
 * written for a wrong proof, as a wrong password at sign-in writes nothing else either.
 */

export type ProveIdentityResult =
  | { ok: true; method: ProofMethod }
  | { ok: false; kind: "invalid"; error: "admin-staff.freshProof.wrong" }
  | { ok: false; kind: "limited"; error: "admin-staff.freshProof.limited"; minutes: number };

const WRONG = { ok: false, kind: "invalid", error: "admin-staff.freshProof.wrong" } as const;

const limited = (minutes: number) =>
  ({ ok: false, kind: "limited", error: "admin-staff.freshProof.limited", minutes }) as const;

const isOn = (value: boolean | number | null | undefined) => value === true || value === 1;

/** The account's email, password hash and, when two-factor is on, its stored secret and codes. */
async function accountOf(db: Db, userId: string) {
  const row = await db
    .selectFrom("users")
    .leftJoin("accounts", (join) =>
      join.onRef("accounts.user_id", "=", "users.id").on("accounts.provider_id", "=", "credential"),
    )
    .leftJoin("two_factors", "two_factors.user_id", "users.id")
    .select([
      "users.email",
      "users.two_factor_enabled",
      "accounts.password as hash",
      "two_factors.id as two_factor_id",
      "two_factors.secret",
      "two_factors.backup_codes",
      "two_factors.verified",
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  const twoFactor =
    isOn(row.two_factor_enabled) && isOn(row.verified) && row.two_factor_id
      ? { id: row.two_factor_id, secret: row.secret!, backupCodes: row.backup_codes! }
      : null;
  return { email: row.email, hash: row.hash, twoFactor };
}

type Account = NonNullable<Awaited<ReturnType<typeof accountOf>>>;
type TwoFactor = NonNullable<Account["twoFactor"]>;

/** The key better-auth encrypts the secret and the backup codes with (derived from the auth secret). */
async function encryptionKey(deps: AccountDeps) {
  return (await deps.auth.$context).secretConfig;
}

/**
 * A code of the account's app, at `now`: right, and of a step the account has not used yet (taking
 * it, so the same code works once: sign-in and proof alike, totp.server.ts).
 */
async function totpMatches(
  deps: AccountDeps,
  userId: string,
  twoFactor: TwoFactor,
  proof: string,
  now: Date,
) {
  let secret: string;
  try {
    secret = await symmetricDecrypt({ key: await encryptionKey(deps), data: twoFactor.secret });
  } catch {
    return false;
  }
  const step = totpStepOf(secret, normalizeTotpCode(proof), now.getTime());
  return step !== null && (await takeTotpStep(deps.db, userId, step));
}

/**
 * One of the account's unused backup codes (as the sign-in matches them: case, spaces and the dash
 * aside), used up: the stored list is rewritten without it only if nobody rewrote it meanwhile, as the
 * two-factor plugin does, so a code raced from two tabs works once.
 */
async function backupCodeMatches(deps: AccountDeps, twoFactor: TwoFactor, proof: string) {
  const key = await encryptionKey(deps);
  let codes: unknown;
  try {
    codes = JSON.parse(await symmetricDecrypt({ key, data: twoFactor.backupCodes }));
  } catch {
    return false;
  }
  if (!Array.isArray(codes)) return false;
  const stored = codes.filter((code): code is string => typeof code === "string");
  const code = matchBackupCode(proof, stored);
  if (!stored.includes(code)) return false;
  const left = await symmetricEncrypt({
    key,
    data: JSON.stringify(stored.filter((other) => other !== code)),
  });
  const used = await deps.db
    .updateTable("two_factors")
    .set({ backup_codes: left })
    .where("id", "=", twoFactor.id)
    .where("backup_codes", "=", twoFactor.backupCodes)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Which of the proof's checks (fresh-proof.ts `proofChecks`) it passes, or null for none. */
async function matchedMethod(
  deps: AccountDeps,
  userId: string,
  account: Account,
  proof: string,
  now: Date,
): Promise<ProofMethod | null> {
  for (const method of proofChecks(proof, account.twoFactor !== null)) {
    const twoFactor = account.twoFactor!;
    const matched =
      method === "totp"
        ? await totpMatches(deps, userId, twoFactor, proof, now)
        : method === "backup"
          ? await backupCodeMatches(deps, twoFactor, proof)
          : !!account.hash && (await verifyPassword(account.hash, proof));
    if (matched) return method;
  }
  return null;
}

/** The account's failures from the address inside the window, newest first, and the latest lift. */
async function proofHistory(db: Db, key: { email: string; address: string }, now: Date) {
  const window = {
    after: iso(now.getTime() - LOGIN_EMAIL_WINDOW_MINUTES * 60_000),
    upTo: iso(now.getTime()),
  };
  const [failures, lifts] = await Promise.all([
    attemptsOf(db, { ...key, succeeded: 0 }, window, PROOF_FAILURE_LIMIT),
    lastLifts(db, liftKeysFor("pair", pairKey(key.email, key.address))),
  ]);
  return { failures, liftedAt: latestOf(lifts.pair, lifts.email, lifts.address) };
}

/**
 * Whether the prompt's own limit refuses the attempt `attemptId` just reserved: counted over the
 * failures recorded before it, so proofs sent at once are let through no more than the limit allows
 * (each is recorded as a failure until it matched, and the throttle records them one at a time).
 */
async function refusedAfterReserving(
  db: Db,
  key: { email: string; address: string },
  attemptId: number,
  now: Date,
) {
  const { liftedAt } = await proofHistory(db, key, now);
  const since = latestOf(liftedAt, iso(now.getTime() - LOGIN_EMAIL_WINDOW_MINUTES * 60_000))!;
  const { count } = await db
    .selectFrom("login_attempts")
    .select(sql<string | number>`count(*)`.as("count"))
    .where("email", "=", key.email)
    .where("ip_address", "=", key.address)
    .where("succeeded", "=", 0)
    .where("id", "<", attemptId)
    .where("created_at", ">", since)
    .where("created_at", "<=", iso(now.getTime()))
    .executeTakeFirstOrThrow();
  return Number(count) >= PROOF_FAILURE_LIMIT;
}

/**
 * Checks a proof typed by the person of a signed-in session (`sessionId`, of `userId`): the account's
 * password or, with two-factor on, a current code of its app (a code used once is refused after) or one
 * of its backup codes (used up). The check goes through the login throttle from the client's address
 * (`ip`) and the prompt's own limit, at `now` (the server's clock). Right: that session alone is
 * stamped as proven at `now` (`sessions.proven_at`). Argon2id is slow on purpose: no transaction is
 * held while it runs.
 */
export async function proveIdentity(
  deps: AccountDeps,
  input: { sessionId: string; userId: string; proof: string; ip: string; now: Date },
  limits: { ipPerMinute: number } = { ipPerMinute: LOGIN_IP_ATTEMPT_LIMIT },
): Promise<ProveIdentityResult> {
  const { db } = deps;
  const { now } = input;
  const account = await accountOf(db, input.userId);
  if (!account) return WRONG;
  const key = { email: account.email, address: loginAddress(input.ip) };
  // Under a guessing run nearly every proof is refused: from a plain read, writing nothing.
  const before = await proofHistory(db, key, now);
  const early = proofBlockEnd(before.failures, now, before.liftedAt);
  if (early) return limited(minutesUntil(early, now));
  const reservation = await reserveLoginAttempt(
    db,
    { email: account.email, ip: input.ip },
    { addressLimit: limits.ipPerMinute, now },
  );
  if (!reservation.ok) return limited(reservation.minutes);
  if (await refusedAfterReserving(db, key, reservation.attemptId, now)) {
    // Refused without a check: not a failure of its own, or the block would never end while refused
    // proofs keep coming (the throttle records no refused attempt either).
    await db.deleteFrom("login_attempts").where("id", "=", reservation.attemptId).execute();
    const after = await proofHistory(db, key, now);
    return limited(minutesUntil(proofBlockEnd(after.failures, now, after.liftedAt), now) || 1);
  }
  const method = await matchedMethod(deps, input.userId, account, input.proof, now);
  if (!method) return WRONG;
  await markLoginSucceeded(db, reservation.attemptId);
  await db
    .updateTable("sessions")
    .set({ proven_at: now.toISOString() })
    .where("id", "=", input.sessionId)
    .where("user_id", "=", input.userId)
    .execute();
  return { ok: true, method };
}
