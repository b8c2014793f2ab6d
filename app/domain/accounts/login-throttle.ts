import {
  LOGIN_EMAIL_FAILURE_CEILING,
  LOGIN_EMAIL_WINDOW_MINUTES,
  LOGIN_IP_ATTEMPT_LIMIT,
  LOGIN_IP_WINDOW_MINUTES,
  LOGIN_KNOWN_ADDRESS_DAYS,
  LOGIN_PAIR_FAILURE_LIMIT,
} from "./accounts";

/**
 * The login throttle (ADR 0005, docs/security.md), in one place: sign-in asks it whether to refuse, and
 * /admin/security asks it which addresses and emails are (or were) refused. Pure, so both read the same
 * rule. Three keys:
 *
 * - `address`: one address, every attempt whatever its outcome (20 a minute);
 * - `pair`: one email from one address, failures (5 in 15 minutes);
 * - `email`: one email from every address together, failures (the ceiling, 50 in 15 minutes).
 *
 * An address that signed in to an account in the last 30 days is never refused by the two email rules
 * (`isKnownAddress`), so failures from elsewhere cannot lock the owner out where they usually sign in;
 * the address rule still applies to it. An attempt is recorded as a failure before its password is
 * checked and turned into a success after, so one whose outcome never came counts as a failure.
 */

export const THROTTLE_KINDS = ["address", "pair", "email"] as const;
export type ThrottleKind = (typeof THROTTLE_KINDS)[number];

/** An IPv6 address is at most 45 characters; anything longer is not an address we recorded. */
export const MAX_ADDRESS_LENGTH = 64;

/** How far back /admin/security looks for blocks that have ended, and for the form limit's refusals. */
export const THROTTLE_LOOKBACK_HOURS = 24;

export interface ThrottleRule {
  kind: ThrottleKind;
  /** Attempts that, all inside the window, block the next one. */
  limit: number;
  windowMinutes: number;
  /** Only failures count (the email rules). */
  failuresOnly: boolean;
}

/** 20 attempts a minute from one address, whatever their outcome (the limit can be raised for tests). */
export function addressRule(limit: number = LOGIN_IP_ATTEMPT_LIMIT): ThrottleRule {
  return { kind: "address", limit, windowMinutes: LOGIN_IP_WINDOW_MINUTES, failuresOnly: false };
}

/** 5 failed attempts for one email from one address in 15 minutes. */
export const PAIR_RULE: ThrottleRule = {
  kind: "pair",
  limit: LOGIN_PAIR_FAILURE_LIMIT,
  windowMinutes: LOGIN_EMAIL_WINDOW_MINUTES,
  failuresOnly: true,
};

/** 50 failed attempts for one email from all addresses together in 15 minutes. */
export const EMAIL_CEILING_RULE: ThrottleRule = {
  kind: "email",
  limit: LOGIN_EMAIL_FAILURE_CEILING,
  windowMinutes: LOGIN_EMAIL_WINDOW_MINUTES,
  failuresOnly: true,
};

export function ruleFor(kind: ThrottleKind, addressLimit?: number): ThrottleRule {
  if (kind === "address") return addressRule(addressLimit);
  return kind === "pair" ? PAIR_RULE : EMAIL_CEILING_RULE;
}

/**
 * A pair's key (in `login_throttle_lifts` and on the security page): the email, a space, the address.
 * An address never holds a space, so the last one splits it.
 */
export function pairKey(email: string, address: string): string {
  return `${email} ${address}`;
}

export function splitPairKey(key: string): { email: string; address: string } | null {
  const space = key.lastIndexOf(" ");
  if (space < 1 || space === key.length - 1) return null;
  return { email: key.slice(0, space), address: key.slice(space + 1) };
}

/**
 * The lifts that reset a key's count: its own, and for a pair also its email's and its address's (an
 * admin who unblocks an email or an address unblocks every pair it is part of).
 */
export function liftKeysFor(
  kind: ThrottleKind,
  key: string,
): { kind: ThrottleKind; key: string }[] {
  if (kind !== "pair") return [{ kind, key }];
  const pair = splitPairKey(key);
  if (!pair) return [{ kind, key }];
  return [
    { kind, key },
    { kind: "email", key: pair.email },
    { kind: "address", key: pair.address },
  ];
}

/** Whether a success of this email from this address at `lastSuccessAt` makes the address known at `now`. */
export function isKnownAddress(lastSuccessAt: string | null | undefined, now: Date): boolean {
  if (!lastSuccessAt) return false;
  const at = Date.parse(lastSuccessAt);
  return at <= now.getTime() && at > now.getTime() - LOGIN_KNOWN_ADDRESS_DAYS * 86_400_000;
}

export interface AttemptMark {
  /** ISO-8601 time the attempt was recorded. */
  at: string;
  succeeded: boolean;
}

function windowMs(rule: ThrottleRule) {
  return rule.windowMinutes * 60_000;
}

/** The latest of some ISO times (null when there are none). */
export function latestOf(...times: (string | null | undefined)[]): string | null {
  let latest: string | null = null;
  for (const time of times)
    if (time && (!latest || Date.parse(time) > Date.parse(latest))) latest = time;
  return latest;
}

/**
 * One rule on one key. `newestFirst` is the key's recorded attempts up to `now`, newest first (at least
 * the newest `rule.limit` counted ones inside the window). Attempts at or before `liftedAt` (an admin
 * lifted the block) do not count. Returns when the block in force at `now` ends, or null when the next
 * attempt may go ahead. Whether the address is known is the caller's question (`signInBlockEnd`).
 */
export function blockEndsAt(
  rule: ThrottleRule,
  newestFirst: readonly AttemptMark[],
  now: Date,
  liftedAt?: string | null,
): Date | null {
  return blockEndsAtFrom(rule, newestFirst, 0, now, liftedAt);
}

/** `blockEndsAt` on `newestFirst` from index `start` on, without copying the list. */
function blockEndsAtFrom(
  rule: ThrottleRule,
  newestFirst: readonly AttemptMark[],
  start: number,
  now: Date,
  liftedAt?: string | null,
): Date | null {
  const since = now.getTime() - windowMs(rule);
  const lifted = liftedAt ? Date.parse(liftedAt) : -Infinity;
  let counted = 0;
  let oldest = 0;
  for (let index = start; index < newestFirst.length; index++) {
    const attempt = newestFirst[index]!;
    const at = Date.parse(attempt.at);
    if (at > now.getTime()) continue;
    if (at <= since || at <= lifted) break;
    if (rule.failuresOnly && attempt.succeeded) continue;
    counted++;
    oldest = at;
    if (counted === rule.limit) break;
  }
  if (counted < rule.limit) return null;
  const end = oldest + windowMs(rule);
  return end > now.getTime() ? new Date(end) : null;
}

/** What sign-in reads, for one email from one address, before it lets an attempt go ahead. */
export interface SignInHistory {
  /** The address's newest attempts inside the address window, newest first. */
  addressAttempts: readonly AttemptMark[];
  /** The pair's newest failures inside the email window, newest first. */
  pairFailures: readonly AttemptMark[];
  /** The email's newest failures from every address inside the email window, newest first. */
  emailFailures: readonly AttemptMark[];
  /** The pair's newest success in the last 30 days. */
  pairLastSuccessAt: string | null;
  /** The latest lift of the address, the email and the pair. */
  lifts: Partial<Record<ThrottleKind, string | null>>;
}

/**
 * THE rule at sign-in: when the refusal of the next attempt for this email from this address ends, or
 * null when it may go ahead. The address rule always applies; the pair and ceiling rules only to an
 * address that has not signed in to this account in the last 30 days.
 */
export function signInBlockEnd(
  history: SignInHistory,
  now: Date,
  addressLimit: number = LOGIN_IP_ATTEMPT_LIMIT,
): Date | null {
  const { lifts } = history;
  const ends = [
    blockEndsAt(addressRule(addressLimit), history.addressAttempts, now, lifts.address),
  ];
  if (!isKnownAddress(history.pairLastSuccessAt, now)) {
    ends.push(
      blockEndsAt(
        PAIR_RULE,
        history.pairFailures,
        now,
        latestOf(lifts.pair, lifts.email, lifts.address),
      ),
      blockEndsAt(EMAIL_CEILING_RULE, history.emailFailures, now, lifts.email),
    );
  }
  let latest: Date | null = null;
  for (const end of ends) if (end && (!latest || end > latest)) latest = end;
  return latest;
}

/** What the login form says: whole minutes to wait, at least 1 while a block is in force. */
export function minutesUntil(end: Date | null, now: Date): number {
  if (!end) return 0;
  const ms = end.getTime() - now.getTime();
  return ms > 0 ? Math.max(1, Math.ceil(ms / 60_000)) : 0;
}

export interface BlockPeriod {
  /** The attempt after which the rule refused the next one. */
  startedAt: string;
  /** When the rule would let attempts through again. */
  endsAt: string;
  /** When an admin lifted it, if that came first. */
  liftedAt: string | null;
}

/**
 * A key's latest block, found by asking `blockEndsAt` after each recorded attempt (newest first) until it
 * refuses. `oldestFirst` is the key's attempts in time order, successes included; `lifts` the times an
 * admin lifted its block (see `liftKeysFor`), in any order. For a pair, `successBefore` is its newest
 * success before these attempts: at a moment when the pair's address was known, nothing was refused.
 * Returns null when the rule never refused anything in these attempts.
 */
export function latestBlock(
  rule: ThrottleRule,
  oldestFirst: readonly AttemptMark[],
  lifts: readonly string[],
  successBefore: string | null = null,
): BlockPeriod | null {
  const liftTimes = lifts.map((at) => Date.parse(at)).sort((a, b) => a - b);
  const liftBefore = (time: number) => {
    let found: number | undefined;
    for (const lift of liftTimes) if (lift <= time) found = lift;
    return found === undefined ? null : new Date(found).toISOString();
  };
  const newestFirst = [...oldestFirst].reverse();
  // The pair's newest success at or before each attempt.
  const lastSuccess: (string | null)[] = new Array<string | null>(newestFirst.length);
  let seen = successBefore;
  for (let index = newestFirst.length - 1; index >= 0; index--) {
    if (newestFirst[index]!.succeeded) seen = newestFirst[index]!.at;
    lastSuccess[index] = seen;
  }
  for (let index = 0; index < newestFirst.length; index++) {
    const attempt = newestFirst[index]!;
    const at = new Date(attempt.at);
    if (rule.kind === "pair" && isKnownAddress(lastSuccess[index], at)) continue;
    const end = blockEndsAtFrom(rule, newestFirst, index, at, liftBefore(at.getTime()));
    if (!end) continue;
    const lifted = liftTimes.find((lift) => lift > at.getTime() && lift < end.getTime());
    return {
      startedAt: at.toISOString(),
      endsAt: end.toISOString(),
      liftedAt: lifted === undefined ? null : new Date(lifted).toISOString(),
    };
  }
  return null;
}

/** When a block (as `latestBlock` found it) stops refusing: at its end, or earlier when lifted. */
export function blockOver(block: BlockPeriod): string {
  return block.liftedAt ?? block.endsAt;
}

/** A login block of /admin/security's list: a key the rule refuses now or refused lately. */
export interface ThrottleEntry {
  kind: ThrottleKind;
  /** What a lift names: the address, the email, or for a pair both (`pairKey`). Show it as text. */
  key: string;
  /** The email (email and pair blocks), as typed. */
  email: string | null;
  /** The address (address and pair blocks). */
  address: string | null;
  /** Attempts the rule counted in the look-back (failures only, for the email rules). */
  attempts: number;
  lastAttemptAt: string;
  block: BlockPeriod;
  /** The block is refusing attempts at this moment. */
  active: boolean;
}

/** The form limit refused an address (/admin/security). */
export interface RateLimitRefusal {
  id: number;
  address: string;
  path: string;
  at: string;
  endsAt: string;
  /** The refusal's window has not ended yet. */
  active: boolean;
}
