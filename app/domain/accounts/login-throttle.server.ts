import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { sql } from "kysely";
import { recordAudit } from "~/domain/audit/audit.server";
import { isPostgres } from "~/db/dialect";
import { oncePer } from "~/db/once-per";
import { inTransaction, refuse, type Db } from "~/db/transaction";
import { compactAddress } from "~/lib/ip-address";
import { z } from "~/lib/zod";
import {
  LOGIN_EMAIL_WINDOW_MINUTES,
  LOGIN_IP_WINDOW_MINUTES,
  LOGIN_KNOWN_ADDRESS_DAYS,
  MAX_EMAIL_LENGTH,
} from "./accounts";
import {
  addressRule,
  blockEndsAt,
  EMAIL_CEILING_RULE,
  isKnownAddress,
  latestBlock,
  latestOf,
  liftKeysFor,
  MAX_ADDRESS_LENGTH,
  minutesUntil,
  PAIR_RULE,
  pairKey,
  signInBlockEnd,
  splitPairKey,
  type AttemptMark,
  type RateLimitRefusal,
  type ThrottleEntry,
  type ThrottleKind,
  type ThrottleRule,
} from "./login-throttle";

/** Login attempts (and lifts) are kept 30 days: enough to look back on an attack, then pruned. */
export const LOGIN_ATTEMPT_RETENTION_DAYS = LOGIN_KNOWN_ADDRESS_DAYS;
/** Pruning deletes by an indexed time range; once an hour per process is plenty. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Form-limit refusals: at most one row per address and minute, kept 7 days and never more than this. */
export const RATE_LIMIT_REFUSAL_RETENTION_DAYS = 7;
export const RATE_LIMIT_REFUSAL_MAX_ROWS = 5000;

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

const iso = (time: number) => new Date(time).toISOString();

/** A key's attempts in (after, upTo], newest first: one index range, at most `limit` rows. */
async function attemptsOf(
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
async function pairLastSuccess(db: Db, email: string, address: string, now: Date) {
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
async function lastLifts(
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

/** How far back /admin/security looks for blocks that have ended. */
export const THROTTLE_LOOKBACK_HOURS = 24;
/** Keys examined per kind, and attempts read per key: the page's cost stays bounded under an attack. */
const THROTTLE_CANDIDATES = 50;
const ATTEMPTS_PER_KEY = 500;

/**
 * Addresses, pairs and emails the login rule is refusing now, or refused in the last 24 hours, each with
 * its latest block (from `latestBlock`, i.e. the sign-in rule itself). Keys that reached the rule's limit
 * in the look-back are the candidates; those blocked now come first.
 */
export async function listThrottles(
  db: Db,
  options: { addressLimit: number; now?: Date },
): Promise<ThrottleEntry[]> {
  const now = options.now ?? new Date();
  const entries = (
    await Promise.all(
      [addressRule(options.addressLimit), PAIR_RULE, EMAIL_CEILING_RULE].map((rule) =>
        throttlesFor(db, rule, now),
      ),
    )
  ).flat();
  return entries.sort(
    (a, b) =>
      Number(b.active) - Number(a.active) ||
      b.block.startedAt.localeCompare(a.block.startedAt) ||
      a.key.localeCompare(b.key),
  );
}

interface Subject {
  email: string | null;
  address: string | null;
}

function keyOf(kind: ThrottleKind, subject: Subject): string {
  if (kind === "address") return subject.address!;
  if (kind === "email") return subject.email!;
  return pairKey(subject.email!, subject.address!);
}

async function throttlesFor(db: Db, rule: ThrottleRule, now: Date): Promise<ThrottleEntry[]> {
  const windowMs = rule.windowMinutes * 60_000;
  const lookbackStart = now.getTime() - THROTTLE_LOOKBACK_HOURS * 3_600_000;
  // A block that ended inside the look-back began at most one window before it.
  const from = iso(lookbackStart - windowMs);
  const nowIso = now.toISOString();
  const byEmail = rule.kind !== "address";
  const byAddress = rule.kind !== "email";
  const grouped = [...(byEmail ? ["email"] : []), ...(byAddress ? ["ip_address"] : [])] as (
    "email" | "ip_address"
  )[];
  const emailColumn = byEmail ? sql<string | null>`email` : sql<string | null>`null`;
  const addressColumn = byAddress ? sql<string | null>`ip_address` : sql<string | null>`null`;
  const candidatesSince = async (since: string) => {
    let query = db
      .selectFrom("login_attempts")
      .select([emailColumn.as("email"), addressColumn.as("address")])
      .where("created_at", ">", since)
      .where("created_at", "<=", nowIso);
    if (rule.failuresOnly) query = query.where("succeeded", "=", 0);
    return query
      .groupBy(grouped)
      .having(sql<number>`count(*)`, ">=", rule.limit)
      .orderBy(sql`max(created_at)`, "desc")
      .limit(THROTTLE_CANDIDATES)
      .execute();
  };
  // Keys that may be blocked right now first (few: each needs `limit` attempts in one window), then
  // the rest of the look-back, so a busy day cannot push a live block off the list.
  const [live, recent] = await Promise.all([
    candidatesSince(iso(now.getTime() - windowMs)),
    candidatesSince(from),
  ]);
  const subjects = new Map<string, Subject>();
  for (const row of [...live, ...recent]) {
    const subject = { email: row.email, address: row.address };
    const key = keyOf(rule.kind, subject);
    if (!subjects.has(key) && subjects.size < THROTTLE_CANDIDATES) subjects.set(key, subject);
  }
  if (subjects.size === 0) return [];

  const liftKeys = [...subjects.keys()].flatMap((key) => liftKeysFor(rule.kind, key));
  const lifts = await liftsSince(db, liftKeys, from);

  const found = await Promise.all(
    [...subjects].map(async ([key, subject]): Promise<ThrottleEntry | null> => {
      const target = { email: subject.email ?? undefined, address: subject.address ?? undefined };
      const [newestFirst, successBefore] = await Promise.all([
        attemptsOf(db, target, { after: from, upTo: nowIso }, ATTEMPTS_PER_KEY),
        rule.kind === "pair"
          ? pairLastSuccess(db, subject.email!, subject.address!, new Date(Date.parse(from)))
          : null,
      ]);
      if (newestFirst.length === 0) return null;
      const marks = [...newestFirst].reverse();
      const own = liftKeysFor(rule.kind, key);
      const block = latestBlock(
        rule,
        marks,
        lifts
          .filter((lift) => own.some((k) => k.kind === lift.kind && k.key === lift.key))
          .map((lift) => lift.created_at),
        successBefore,
      );
      if (!block) return null;
      const over = Date.parse(block.liftedAt ?? block.endsAt);
      if (over < lookbackStart) return null;
      return {
        kind: rule.kind,
        key,
        email: subject.email,
        address: subject.address,
        attempts: marks.filter((mark) => !rule.failuresOnly || !mark.succeeded).length,
        lastAttemptAt: newestFirst[0]!.at,
        block,
        active: over > now.getTime(),
      };
    }),
  );
  return found.filter((entry): entry is ThrottleEntry => entry !== null);
}

/** The lifts of these keys after `since`, through the (kind, key, created_at) index. */
async function liftsSince(db: Db, keys: { kind: ThrottleKind; key: string }[], since: string) {
  const byKind = new Map<ThrottleKind, Set<string>>();
  for (const { kind, key } of keys) byKind.set(kind, (byKind.get(kind) ?? new Set()).add(key));
  return db
    .selectFrom("login_throttle_lifts")
    .select(["kind", "key", "created_at"])
    .where((eb) =>
      eb.or(
        [...byKind].map(([kind, set]) =>
          eb.and([eb("kind", "=", kind), eb("key", "in", [...set])]),
        ),
      ),
    )
    .where("created_at", ">", since)
    .execute();
}

export interface BlockInForce {
  kind: ThrottleKind;
  key: string;
  email: string | null;
  address: string | null;
  endsAt: string;
}

/** Pairs looked at when lifting an email's or an address's blocks (each needs 5 failures in 15 minutes). */
const PAIRS_PER_LIFT = 200;

/** The block on one key in force at `now`, as sign-in would find it for that key (null: none). */
async function blockOn(
  db: Db,
  kind: ThrottleKind,
  key: string,
  now: Date,
  addressLimit: number,
): Promise<Date | null> {
  const upTo = now.toISOString();
  const emailWindow = { after: iso(now.getTime() - LOGIN_EMAIL_WINDOW_MINUTES * 60_000), upTo };
  if (kind === "address") {
    const [attempts, lifts] = await Promise.all([
      attemptsOf(
        db,
        { address: key },
        { after: iso(now.getTime() - LOGIN_IP_WINDOW_MINUTES * 60_000), upTo },
        addressLimit,
      ),
      lastLifts(db, liftKeysFor(kind, key)),
    ]);
    return blockEndsAt(addressRule(addressLimit), attempts, now, lifts.address);
  }
  if (kind === "email") {
    const [failures, lifts] = await Promise.all([
      attemptsOf(db, { email: key, succeeded: 0 }, emailWindow, EMAIL_CEILING_RULE.limit),
      lastLifts(db, liftKeysFor(kind, key)),
    ]);
    return blockEndsAt(EMAIL_CEILING_RULE, failures, now, lifts.email);
  }
  const pair = splitPairKey(key);
  if (!pair) return null;
  const [failures, lastSuccess, lifts] = await Promise.all([
    attemptsOf(db, { ...pair, succeeded: 0 }, emailWindow, PAIR_RULE.limit),
    pairLastSuccess(db, pair.email, pair.address, now),
    lastLifts(db, liftKeysFor(kind, key)),
  ]);
  if (isKnownAddress(lastSuccess, now)) return null;
  return blockEndsAt(PAIR_RULE, failures, now, latestOf(lifts.pair, lifts.email, lifts.address));
}

/**
 * Every block in force at `now` that a lift of this key ends: the key's own, and for an email or an
 * address every pair it is part of.
 */
export async function blocksInForce(
  db: Db,
  input: { kind: ThrottleKind; key: string; addressLimit: number; now: Date },
): Promise<BlockInForce[]> {
  const { kind, key, now, addressLimit } = input;
  const subjects: {
    kind: ThrottleKind;
    key: string;
    email: string | null;
    address: string | null;
  }[] = [];
  if (kind === "pair") {
    const pair = splitPairKey(key);
    if (pair) subjects.push({ kind, key, ...pair });
  } else {
    subjects.push({
      kind,
      key,
      email: kind === "email" ? key : null,
      address: kind === "address" ? key : null,
    });
    // The pairs with enough failures in the window to be blocked: one index range of this key.
    const rows = await db
      .selectFrom("login_attempts")
      .select((kind === "email" ? sql<string>`ip_address` : sql<string>`email`).as("value"))
      .where(kind === "email" ? "email" : "ip_address", "=", key)
      .where("succeeded", "=", 0)
      .where("created_at", ">", iso(now.getTime() - LOGIN_EMAIL_WINDOW_MINUTES * 60_000))
      .where("created_at", "<=", now.toISOString())
      .groupBy(kind === "email" ? "ip_address" : "email")
      .having(sql<number>`count(*)`, ">=", PAIR_RULE.limit)
      .limit(PAIRS_PER_LIFT)
      .execute();
    for (const { value } of rows) {
      const pair =
        kind === "email" ? { email: key, address: value } : { email: value, address: key };
      subjects.push({ kind: "pair", key: pairKey(pair.email, pair.address), ...pair });
    }
  }
  const ends = await Promise.all(
    subjects.map((subject) => blockOn(db, subject.kind, subject.key, now, addressLimit)),
  );
  return subjects.flatMap((subject, index) => {
    const end = ends[index];
    return end ? [{ ...subject, endsAt: end.toISOString() }] : [];
  });
}

/** The addresses the form limit refused in the last 24 hours, newest first. */
export async function listRateLimitRefusals(
  db: Db,
  options: { limit: number; now?: Date },
): Promise<RateLimitRefusal[]> {
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - THROTTLE_LOOKBACK_HOURS * 3_600_000).toISOString();
  const rows = await db
    .selectFrom("rate_limit_refusals")
    .select(["id", "ip_address", "path", "created_at", "ends_at"])
    .where("created_at", ">", since)
    .orderBy("id", "desc")
    .limit(options.limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    address: row.ip_address,
    path: row.path,
    at: row.created_at,
    endsAt: row.ends_at,
    active: Date.parse(row.ends_at) > now.getTime(),
  }));
}

/** The forms the per-address limit covers (server/request-limits.ts); anything else is stored as "other". */
export const RATE_LIMITED_PATHS = [
  "/login",
  "/register",
  "/contact",
  "/newsletter",
  "/language",
  "/logout",
  "/forgot-password",
  "/reset-password",
] as const;

/**
 * Records that the form limit refused an address. server/request-limits.ts calls it only for the first
 * refusal of an address and form in a window, so an address adds at most one row per form a minute
 * (across every server process: the count is in the database). The worker's housekeeping schedule
 * keeps the table small (pruneRateLimitRefusals).
 */
export async function recordRateLimitRefusal(
  db: Db,
  refusal: { ip: string; path: string; endsAt: Date },
  now = new Date(),
) {
  const path = (RATE_LIMITED_PATHS as readonly string[]).includes(refusal.path)
    ? refusal.path
    : "other";
  await db
    .insertInto("rate_limit_refusals")
    .values({
      ip_address: loginAddress(refusal.ip),
      path,
      created_at: now.toISOString(),
      ends_at: refusal.endsAt.toISOString(),
    })
    .execute();
}

/**
 * Deletes the form-limit refusals past the retention and beyond the newest RATE_LIMIT_REFUSAL_MAX_ROWS,
 * so the table stays small whatever the traffic (the worker's housekeeping schedule runs it). Returns
 * the rows deleted.
 */
export async function pruneRateLimitRefusals(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(
    now.getTime() - RATE_LIMIT_REFUSAL_RETENTION_DAYS * 86_400_000,
  ).toISOString();
  // The newest row past the cap, found through the primary key; it and everything older goes.
  const boundary = await db
    .selectFrom("rate_limit_refusals")
    .select("id")
    .orderBy("id", "desc")
    .limit(1)
    .offset(RATE_LIMIT_REFUSAL_MAX_ROWS)
    .executeTakeFirst();
  const result = await db
    .deleteFrom("rate_limit_refusals")
    .where((eb) =>
      eb.or([
        eb("created_at", "<", cutoff),
        ...(boundary ? [eb("id", "<=", Number(boundary.id))] : []),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * What `npm run admin -- unblock` was given: an email (any case) or an IP address (in any of its forms),
 * as the key a lift names; null when it is neither.
 */
export function unblockTarget(text: string): { kind: "email" | "address"; key: string } | null {
  const value = text.trim();
  if (isIP(value) !== 0) return { kind: "address", key: loginAddress(value) };
  const email = z.email().max(MAX_EMAIL_LENGTH).safeParse(value.toLowerCase());
  return email.success ? { kind: "email", key: email.data } : null;
}

export type LiftBlockResult =
  | {
      ok: true;
      kind: ThrottleKind;
      key: string;
      /** The key's email and address (a pair has both). */
      email: string | null;
      address: string | null;
      lifted: BlockInForce[];
    }
  | { ok: false; kind: "conflict"; error: "admin-security.errors.notBlocked" };

/**
 * Lifts the login blocks on an address, an email or one pair, for the security page and for
 * `npm run admin -- unblock`. A lift row makes the attempts made so far stop counting for that key (the
 * rule in `blockEndsAt`), and an email's or an address's lift counts for every pair it is part of
 * (`liftKeysFor`), so the next attempt goes ahead; new failures count again from zero. Only a key with a
 * block in force now can be lifted. One transaction with its audit entry, which lists what was lifted.
 * `actorId` is the admin, or null for the command line (`reason` then says so).
 */
export async function liftLoginBlock(
  db: Db,
  input: {
    actorId: string | null;
    kind: ThrottleKind;
    key: string;
    addressLimit: number;
    reason?: string;
    now?: Date;
  },
): Promise<LiftBlockResult> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx): Promise<LiftBlockResult> => {
    const lifted = await blocksInForce(trx, { ...input, now });
    if (lifted.length === 0)
      refuse<LiftBlockResult>("conflict", "admin-security.errors.notBlocked");
    await trx
      .insertInto("login_throttle_lifts")
      .values({
        kind: input.kind,
        key: input.key,
        lifted_by: input.actorId,
        created_at: now.toISOString(),
      })
      .execute();
    const own = lifted.find((block) => block.kind === input.kind && block.key === input.key);
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "login_block.lift",
      targetType: "login_block",
      targetId: input.key,
      before: {
        kind: input.kind,
        key: input.key,
        endsAt: own?.endsAt ?? null,
        blocks: lifted.map(({ kind, key, endsAt }) => ({ kind, key, endsAt })),
      },
      after: { liftedAt: now.toISOString() },
      reason: input.reason,
    });
    const pair = input.kind === "pair" ? splitPairKey(input.key) : null;
    return {
      ok: true,
      kind: input.kind,
      key: input.key,
      email: pair?.email ?? (input.kind === "email" ? input.key : null),
      address: pair?.address ?? (input.kind === "address" ? input.key : null),
      lifted,
    };
  });
}
