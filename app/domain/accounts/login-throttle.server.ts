import { createHash } from "node:crypto";
import { sql } from "kysely";
import { isPostgres } from "~/db/dialect";
import { oncePer } from "~/db/once-per";
import { inTransaction, type Db } from "~/db/transaction";
import { compactAddress } from "~/lib/ip-address";
import {
  LOGIN_EMAIL_WINDOW_MINUTES,
  LOGIN_IP_WINDOW_MINUTES,
  LOGIN_KNOWN_ADDRESS_DAYS,
  MAX_EMAIL_LENGTH,
} from "./accounts";
import {
  EMAIL_CEILING_RULE,
  MAX_ADDRESS_LENGTH,
  minutesUntil,
  PAIR_RULE,
  pairKey,
  signInBlockEnd,
  type AttemptMark,
  type ThrottleKind,
} from "./login-throttle";

// The sign-in gate (login-throttle.ts has its rule): every sign-in and current-password check reserves
// its attempt here before a password is compared. The security page's lists of blocks and their lifts
// are in login-blocks.server.ts, the form limit's refusals in rate-limit-refusals.server.ts; both read
// the attempts through the reads below.

/** Login attempts (and lifts) are kept 30 days: enough to look back on an attack, then pruned. */
export const LOGIN_ATTEMPT_RETENTION_DAYS = LOGIN_KNOWN_ADDRESS_DAYS;
/** Pruning deletes by an indexed time range; once an hour per process is plenty. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The form an address is recorded and compared in: a dual-stack server's "::ffff:203.0.113.9" is
 * 203.0.113.9, an IPv6 address is in its short lower-case form, as the security page shows it and an
 * admin types it to `npm run admin -- unblock`.
 */
export function loginAddress(ip: string): string {
  return compactAddress(ip.trim()).toLowerCase().slice(0, MAX_ADDRESS_LENGTH);
}

function loginEmail(email: string): string {
  return email.slice(0, MAX_EMAIL_LENGTH);
}

export const iso = (time: number) => new Date(time).toISOString();

/** A key's attempts in (after, upTo], newest first: one index range, at most `limit` rows. */
export async function attemptsOf(
  db: Db,
  key: { email?: string; address?: string; succeeded?: 0 | 1 },
  range: { after: string; upTo: string },
  limit: number,
): Promise<AttemptMark[]> {
  let query = db
    .selectFrom("login_attempts")
    .select(["created_at", "succeeded"])
    .where("created_at", ">", range.after)
    .where("created_at", "<=", range.upTo);
  if (key.email !== undefined) query = query.where("email", "=", key.email);
  if (key.address !== undefined) query = query.where("ip_address", "=", key.address);
  if (key.succeeded !== undefined) query = query.where("succeeded", "=", key.succeeded);
  const rows = await query.orderBy("created_at", "desc").limit(limit).execute();
  return rows.map(toMark);
}

function toMark(row: { created_at: string; succeeded: number }): AttemptMark {
  return { at: row.created_at, succeeded: row.succeeded === 1 };
}

/** The pair's newest success at or before `now`, within the 30 days that make an address known. */
export async function pairLastSuccess(db: Db, email: string, address: string, now: Date) {
  const [success] = await attemptsOf(
    db,
    { email, address, succeeded: 1 },
    {
      after: iso(now.getTime() - LOGIN_KNOWN_ADDRESS_DAYS * 86_400_000),
      upTo: now.toISOString(),
    },
    1,
  );
  return success?.at ?? null;
}

/** The latest lift of each of these keys, by kind (a key per kind). */
export async function lastLifts(
  db: Db,
  keys: readonly { kind: ThrottleKind; key: string }[],
): Promise<Partial<Record<ThrottleKind, string | null>>> {
  const rows = await db
    .selectFrom("login_throttle_lifts")
    .select(["kind", sql<string>`max(created_at)`.as("at")])
    .where((eb) =>
      eb.or(keys.map(({ kind, key }) => eb.and([eb("kind", "=", kind), eb("key", "=", key)]))),
    )
    .groupBy("kind")
    .execute();
  return Object.fromEntries(rows.map((row) => [row.kind, row.at]));
}

/** Everything `signInBlockEnd` needs for one email from one address: five index seeks. */
async function signInHistory(
  db: Db,
  client: { email: string; address: string },
  now: Date,
  addressLimit: number,
) {
  const upTo = now.toISOString();
  const emailWindow = {
    after: iso(now.getTime() - LOGIN_EMAIL_WINDOW_MINUTES * 60_000),
    upTo,
  };
  const { email, address } = client;
  const [addressAttempts, pairFailures, emailFailures, pairLastSuccessAt, lifts] =
    await Promise.all([
      attemptsOf(
        db,
        { address },
        { after: iso(now.getTime() - LOGIN_IP_WINDOW_MINUTES * 60_000), upTo },
        addressLimit,
      ),
      attemptsOf(db, { email, address, succeeded: 0 }, emailWindow, PAIR_RULE.limit),
      attemptsOf(db, { email, succeeded: 0 }, emailWindow, EMAIL_CEILING_RULE.limit),
      pairLastSuccess(db, email, address, now),
      lastLifts(db, [
        { kind: "address", key: address },
        { kind: "email", key: email },
        { kind: "pair", key: pairKey(email, address) },
      ]),
    ]);
  return { addressAttempts, pairFailures, emailFailures, pairLastSuccessAt, lifts };
}

/** Advisory-lock namespace of the login throttle (PostgreSQL's two-key form: this, then a key's hash). */
const LOGIN_LOCK_CLASS = 0x4c4f47; // "LOG"

/**
 * Makes the check and the reservation of one attempt a single step for everyone racing on the same
 * address or email. On SQLite the transaction already holds the database's write lock (BEGIN IMMEDIATE,
 * sqlite-dialect.server.ts), across every server process on the file. On PostgreSQL a transaction-scoped
 * advisory lock per address and per email, taken in one order so two sign-ins never wait on each other
 * in a circle; two keys with the same hash merely wait for each other.
 */
async function lockLoginKeys(db: Db, keys: string[]) {
  if (!isPostgres(db)) return;
  const ids = [
    ...new Set(keys.map((key) => createHash("sha256").update(key).digest().readInt32BE(0))),
  ].sort((a, b) => a - b);
  for (const id of ids)
    await sql`select pg_advisory_xact_lock(${LOGIN_LOCK_CLASS}::integer, ${id}::integer)`.execute(
      db,
    );
}

export type LoginReservation =
  { ok: true; attemptId: number } | { ok: false; until: Date; minutes: number };

/**
 * Checks the throttle for one sign-in and, when it may go ahead, records the attempt, as one atomic step
 * (`lockLoginKeys`), before any password is checked: N sign-ins racing for one email or from one address
 * never get more than the rule's limit through. The attempt is recorded as a failure; `markLoginSucceeded`
 * turns it into a success once the password matched, so an attempt whose outcome never came (a crash)
 * counts as a failure. A refused attempt is not recorded (it would keep its own block alive).
 */
export async function reserveLoginAttempt(
  db: Db,
  attempt: { email: string; ip: string },
  options: { addressLimit: number; now?: Date },
): Promise<LoginReservation> {
  const email = loginEmail(attempt.email);
  const address = loginAddress(attempt.ip);
  // Under an attack nearly every attempt is refused: those are answered from a plain read (on SQLite the
  // read connection), taking no lock and no write, so they hold up neither orders nor other sign-ins. A
  // block in force stays in force until its time or a lift, so this can only refuse what the step below
  // would refuse too; letting an attempt through is decided there alone.
  const seen = options.now ?? new Date();
  const early = signInBlockEnd(
    await signInHistory(db, { email, address }, seen, options.addressLimit),
    seen,
    options.addressLimit,
  );
  if (early) return { ok: false, until: early, minutes: minutesUntil(early, seen) };

  const { reservation } = await inTransaction(db, async (trx) => {
    await lockLoginKeys(trx, [`address ${address}`, `email ${email}`]);
    // Read the clock once the lock is held, so attempts are recorded in the order they were let through.
    const now = options.now ?? new Date();
    const history = await signInHistory(trx, { email, address }, now, options.addressLimit);
    const until = signInBlockEnd(history, now, options.addressLimit);
    if (until) {
      const refused: LoginReservation = { ok: false, until, minutes: minutesUntil(until, now) };
      return { reservation: refused, now };
    }
    const row = await trx
      .insertInto("login_attempts")
      .values({ email, ip_address: address, succeeded: 0, created_at: now.toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const reserved: LoginReservation = { ok: true, attemptId: Number(row.id) };
    return { reservation: reserved, now };
  });
  // Old attempts are pruned by the worker's housekeeping schedule (app/domain/jobs), not here.
  return reservation;
}

/** The reserved attempt's password matched. */
export async function markLoginSucceeded(db: Db, attemptId: number) {
  await db
    .updateTable("login_attempts")
    .set({ succeeded: 1 })
    .where("id", "=", attemptId)
    .execute();
}

export type CurrentPasswordCheck =
  { outcome: "matched" } | { outcome: "wrong" } | { outcome: "blocked"; minutes: number };

/**
 * Checks a signed-in account's current password (before an email or password change) under the sign-in
 * rules: a session is not the password, and without this whoever holds a stolen session could guess it
 * here without limit. The attempt is reserved for the account's email from the client's address like a
 * sign-in, so a wrong guess counts as a failed login (and a failed login here), a blocked one costs no
 * password check, and a match makes the address known as a successful sign-in does. `check` runs the
 * Argon2id comparison (or better-auth's); if it throws, the attempt stays a failure.
 */
export async function checkCurrentPassword(
  db: Db,
  attempt: { email: string; ip: string },
  options: { addressLimit: number; now?: Date },
  check: () => Promise<boolean>,
): Promise<CurrentPasswordCheck> {
  const reservation = await reserveLoginAttempt(db, attempt, options);
  if (!reservation.ok) return { outcome: "blocked", minutes: reservation.minutes };
  if (!(await check())) return { outcome: "wrong" };
  await markLoginSucceeded(db, reservation.attemptId);
  return { outcome: "matched" };
}

const pruneDue = oncePer(PRUNE_EVERY_MS);

/**
 * Deletes login attempts and lifts older than the retention, at most once an hour per database handle
 * unless forced (the worker's housekeeping schedule forces it, hourly). Returns the rows deleted, or
 * null when it was not time yet.
 */
export async function pruneLoginRecords(
  db: Db,
  now = new Date(),
  options: { force?: boolean } = {},
): Promise<number | null> {
  if (!pruneDue(db, now, options.force)) return null;
  const cutoff = iso(now.getTime() - LOGIN_ATTEMPT_RETENTION_DAYS * 86_400_000);
  const [attempts, lifts] = await Promise.all([
    db.deleteFrom("login_attempts").where("created_at", "<", cutoff).executeTakeFirst(),
    db.deleteFrom("login_throttle_lifts").where("created_at", "<", cutoff).executeTakeFirst(),
  ]);
  return Number(attempts.numDeletedRows) + Number(lifts.numDeletedRows);
}

/**
 * Records one attempt with its outcome, without asking the throttle (sign-in reserves instead; this is for
 * imports and tests). The email is cut to the login schema's limit, the address put in its one form.
 */
export async function recordLoginAttempt(
  db: Db,
  attempt: { email: string; ip: string; succeeded: boolean },
  now = new Date(),
) {
  await db
    .insertInto("login_attempts")
    .values({
      email: loginEmail(attempt.email),
      ip_address: loginAddress(attempt.ip),
      succeeded: attempt.succeeded ? 1 : 0,
      created_at: now.toISOString(),
    })
    .execute();
}
