import { sql } from "kysely";
import { recordAudit } from "~/domain/audit/audit.server";
import { inTransaction, Refusal, type Db } from "~/db/transaction";
import { logger } from "~/lib/logger.server";
import { MAX_EMAIL_LENGTH } from "./accounts";
import {
  addressRule,
  blockEndsAt,
  EMAIL_RULE,
  latestBlock,
  type AttemptMark,
  type BlockPeriod,
  type ThrottleKind,
  type ThrottleRule,
} from "./login-throttle";

/** Login attempts (and lifts) are kept 30 days: enough to look back on an attack, then pruned. */
export const LOGIN_ATTEMPT_RETENTION_DAYS = 30;
/** Pruning deletes by an indexed time range; once an hour per process is plenty. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Form-limit refusals: at most one row per address and minute, kept 7 days and never more than this. */
export const RATE_LIMIT_REFUSAL_RETENTION_DAYS = 7;
export const RATE_LIMIT_REFUSAL_MAX_ROWS = 5000;
/** An IPv6 address is at most 45 characters; anything longer is not an address we recorded. */
export const MAX_ADDRESS_LENGTH = 64;

function column(kind: ThrottleKind) {
  return kind === "address" ? ("ip_address" as const) : ("email" as const);
}

/** The latest time an admin lifted this key's block, or null. */
async function lastLift(db: Db, kind: ThrottleKind, key: string): Promise<string | null> {
  const row = await db
    .selectFrom("login_throttle_lifts")
    .select("created_at")
    .where("kind", "=", kind)
    .where("key", "=", key)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/**
 * When the block on one address or email that is in force at `now` ends (null: none). Reads only what
 * the rule needs: the newest `limit` attempts inside the window, and the last lift.
 */
export async function currentBlock(
  db: Db,
  rule: ThrottleRule,
  key: string,
  now: Date,
): Promise<Date | null> {
  const since = new Date(now.getTime() - rule.windowMinutes * 60_000).toISOString();
  const [rows, liftedAt] = await Promise.all([
    db
      .selectFrom("login_attempts")
      .select(["created_at", "succeeded"])
      .where(column(rule.kind), "=", key)
      .where("created_at", ">", since)
      .orderBy("created_at", "desc")
      .limit(rule.limit)
      .execute(),
    lastLift(db, rule.kind, key),
  ]);
  return blockEndsAt(rule, rows.map(toMark), now, liftedAt);
}

function toMark(row: { created_at: string; succeeded: number }): AttemptMark {
  return { at: row.created_at, succeeded: row.succeeded === 1 };
}

const lastPruned = new WeakMap<Db, number>();

/**
 * Deletes login attempts and lifts older than the retention, at most once an hour per database handle
 * (called after each recorded attempt, so an idle site does no work). Returns the rows deleted, or null
 * when it was not time yet.
 */
export async function pruneLoginRecords(
  db: Db,
  now = new Date(),
  options: { force?: boolean } = {},
): Promise<number | null> {
  const last = lastPruned.get(db) ?? 0;
  if (!options.force && now.getTime() - last < PRUNE_EVERY_MS) return null;
  lastPruned.set(db, now.getTime());
  const cutoff = new Date(now.getTime() - LOGIN_ATTEMPT_RETENTION_DAYS * 86_400_000).toISOString();
  const [attempts, lifts] = await Promise.all([
    db.deleteFrom("login_attempts").where("created_at", "<", cutoff).executeTakeFirst(),
    db.deleteFrom("login_throttle_lifts").where("created_at", "<", cutoff).executeTakeFirst(),
  ]);
  return Number(attempts.numDeletedRows) + Number(lifts.numDeletedRows);
}

/**
 * Records one attempt. The email is what the visitor typed (the login schema already bounds it); it is
 * cut to the schema's limit here as well, so no caller can store more.
 */
export async function recordLoginAttempt(
  db: Db,
  attempt: { email: string; ip: string; succeeded: boolean },
  now = new Date(),
) {
  await db
    .insertInto("login_attempts")
    .values({
      email: attempt.email.slice(0, MAX_EMAIL_LENGTH),
      ip_address: attempt.ip.slice(0, MAX_ADDRESS_LENGTH),
      succeeded: attempt.succeeded ? 1 : 0,
      created_at: now.toISOString(),
    })
    .execute();
  try {
    await pruneLoginRecords(db, now);
  } catch (error) {
    // Pruning is housekeeping: a failure must not turn a login into an error.
    logger.warn({ err: error }, "pruning login attempts failed");
  }
}

export interface ThrottleEntry {
  kind: ThrottleKind;
  /** The address or the email (as typed; show it as text). */
  key: string;
  /** Attempts the rule counted in the look-back (failures only, for an email). */
  attempts: number;
  lastAttemptAt: string;
  block: BlockPeriod;
  /** The block is refusing attempts at this moment. */
  active: boolean;
}

/** How far back /admin/security looks for blocks that have ended. */
export const THROTTLE_LOOKBACK_HOURS = 24;
/** Keys examined per kind, and attempts read per key: the page's cost stays bounded under an attack. */
const THROTTLE_CANDIDATES = 50;
const ATTEMPTS_PER_KEY = 500;

/**
 * Addresses and emails the login rule is refusing now, or refused in the last 24 hours, each with its
 * latest block (from `latestBlock`, i.e. the sign-in rule itself). Keys that reached the rule's limit in
 * the look-back are the candidates; those blocked now come first.
 */
export async function listThrottles(
  db: Db,
  options: { addressLimit: number; now?: Date },
): Promise<ThrottleEntry[]> {
  const now = options.now ?? new Date();
  const entries = (
    await Promise.all(
      [addressRule(options.addressLimit), EMAIL_RULE].map((rule) => throttlesFor(db, rule, now)),
    )
  ).flat();
  return entries.sort(
    (a, b) =>
      Number(b.active) - Number(a.active) ||
      b.block.startedAt.localeCompare(a.block.startedAt) ||
      a.key.localeCompare(b.key),
  );
}

async function throttlesFor(db: Db, rule: ThrottleRule, now: Date): Promise<ThrottleEntry[]> {
  const key = column(rule.kind);
  const windowMs = rule.windowMinutes * 60_000;
  const lookbackStart = now.getTime() - THROTTLE_LOOKBACK_HOURS * 3_600_000;
  // A block that ended inside the look-back began at most one window before it.
  const from = new Date(lookbackStart - windowMs).toISOString();
  const nowIso = now.toISOString();
  const candidatesSince = async (since: string) => {
    let query = db
      .selectFrom("login_attempts")
      .select([`${key} as key`, sql<string>`max(created_at)`.as("last_at")])
      .where("created_at", ">", since)
      .where("created_at", "<=", nowIso);
    if (rule.failuresOnly) query = query.where("succeeded", "=", 0);
    return query
      .groupBy(key)
      .having(sql<number>`count(*)`, ">=", rule.limit)
      .orderBy(sql`max(created_at)`, "desc")
      .limit(THROTTLE_CANDIDATES)
      .execute();
  };
  // Keys that may be blocked right now first (few: each needs `limit` attempts in one window), then
  // the rest of the look-back, so a busy day cannot push a live block off the list.
  const [live, recent] = await Promise.all([
    candidatesSince(new Date(now.getTime() - windowMs).toISOString()),
    candidatesSince(from),
  ]);
  const keys = [...new Set([...live, ...recent].map((row) => row.key))].slice(
    0,
    THROTTLE_CANDIDATES,
  );
  if (keys.length === 0) return [];
  const lifts = await db
    .selectFrom("login_throttle_lifts")
    .select(["key", "created_at"])
    .where("kind", "=", rule.kind)
    .where("key", "in", keys)
    .where("created_at", ">", from)
    .execute();

  const found = await Promise.all(
    keys.map(async (value): Promise<ThrottleEntry | null> => {
      const rows = await db
        .selectFrom("login_attempts")
        .select(["created_at", "succeeded"])
        .where(key, "=", value)
        .where("created_at", ">", from)
        .where("created_at", "<=", nowIso)
        .orderBy("created_at", "desc")
        .limit(ATTEMPTS_PER_KEY)
        .execute();
      const marks = rows.map(toMark).reverse();
      const block = latestBlock(
        rule,
        marks,
        lifts.filter((lift) => lift.key === value).map((lift) => lift.created_at),
      );
      if (!block) return null;
      const over = Date.parse(block.liftedAt ?? block.endsAt);
      if (over < lookbackStart) return null;
      return {
        kind: rule.kind,
        key: value,
        attempts: marks.filter((mark) => !rule.failuresOnly || !mark.succeeded).length,
        lastAttemptAt: rows[0]!.created_at,
        block,
        active: over > now.getTime(),
      };
    }),
  );
  return found.filter((entry): entry is ThrottleEntry => entry !== null);
}

/** The addresses the form limit refused in the last 24 hours, newest first. */
export async function listRateLimitRefusals(db: Db, options: { limit: number; now?: Date }) {
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
] as const;

/**
 * Records that the form limit refused an address. server/request-limits.ts calls it only for the first
 * refusal of an address and form in a window, so an address adds at most one row per form a minute
 * (across every server process: the count is in the database); each insert also deletes rows
 * past the retention and beyond the newest RATE_LIMIT_REFUSAL_MAX_ROWS, so the table stays small
 * whatever the traffic.
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
      ip_address: refusal.ip.slice(0, MAX_ADDRESS_LENGTH),
      path,
      created_at: now.toISOString(),
      ends_at: refusal.endsAt.toISOString(),
    })
    .execute();
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
  await db
    .deleteFrom("rate_limit_refusals")
    .where((eb) =>
      eb.or([
        eb("created_at", "<", cutoff),
        ...(boundary ? [eb("id", "<=", Number(boundary.id))] : []),
      ]),
    )
    .execute();
}

export type LiftBlockResult =
  | { ok: true; kind: ThrottleKind; key: string }
  | { ok: false; error: "admin-security.errors.notBlocked" };

/**
 * An admin lifts the login block on an address or an email: a lift row makes the attempts made so far
 * stop counting (the rule in `blockEndsAt`), so the next attempt goes ahead; new failures count again
 * from zero. Only a block in force now can be lifted. One transaction with its audit entry.
 */
export async function liftLoginBlock(
  db: Db,
  input: {
    actorId: string;
    kind: ThrottleKind;
    key: string;
    addressLimit: number;
    now?: Date;
  },
): Promise<LiftBlockResult> {
  const now = input.now ?? new Date();
  const rule = input.kind === "address" ? addressRule(input.addressLimit) : EMAIL_RULE;
  return inTransaction(db, async (trx): Promise<LiftBlockResult> => {
    const end = await currentBlock(trx, rule, input.key, now);
    if (!end)
      throw new Refusal<LiftBlockResult>({
        ok: false,
        error: "admin-security.errors.notBlocked",
      });
    await trx
      .insertInto("login_throttle_lifts")
      .values({
        kind: input.kind,
        key: input.key,
        lifted_by: input.actorId,
        created_at: now.toISOString(),
      })
      .execute();
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "login_block.lift",
      targetType: "login_block",
      targetId: input.key,
      before: { kind: input.kind, key: input.key, endsAt: end.toISOString() },
      after: { liftedAt: now.toISOString() },
    });
    return { ok: true, kind: input.kind, key: input.key };
  });
}
