import { isIP } from "node:net";
import { sql } from "kysely";
import { inTransaction, refuse, type Db } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { z } from "~/lib/zod";
import { LOGIN_EMAIL_WINDOW_MINUTES, LOGIN_IP_WINDOW_MINUTES, MAX_EMAIL_LENGTH } from "./accounts";
import {
  addressRule,
  blockEndsAt,
  EMAIL_CEILING_RULE,
  isKnownAddress,
  latestBlock,
  latestOf,
  liftKeysFor,
  PAIR_RULE,
  pairKey,
  splitPairKey,
  THROTTLE_LOOKBACK_HOURS,
  type ThrottleEntry,
  type ThrottleKind,
  type ThrottleRule,
} from "./login-throttle";
import { attemptsOf, iso, lastLifts, loginAddress, pairLastSuccess } from "./login-throttle.server";

// The security page's login blocks (/admin/security) and `npm run admin -- unblock`: the blocks of the
// last day, those in force on a key, and their lift. Each is found by the sign-in rule itself
// (login-throttle.ts) over the attempts the gate recorded (login-throttle.server.ts).

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
    await record(trx, {
      type: "account.loginBlockLifted",
      actorId: input.actorId,
      kind: input.kind,
      key: input.key,
      endsAt: own?.endsAt ?? null,
      blocks: lifted.map(({ kind, key, endsAt }) => ({ kind, key, endsAt })),
      liftedAt: now.toISOString(),
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
