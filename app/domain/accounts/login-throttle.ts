import {
  LOGIN_EMAIL_FAILURE_LIMIT,
  LOGIN_EMAIL_WINDOW_MINUTES,
  LOGIN_IP_ATTEMPT_LIMIT,
  LOGIN_IP_WINDOW_MINUTES,
} from "./accounts";

/**
 * The login throttle (ADR 0005), in one place: sign-in asks it whether to refuse, and /admin/security
 * asks it which addresses and emails are (or were) refused. Pure, so both read the same rule.
 */

export const THROTTLE_KINDS = ["address", "email"] as const;
export type ThrottleKind = (typeof THROTTLE_KINDS)[number];

export interface ThrottleRule {
  kind: ThrottleKind;
  /** Attempts that, all inside the window, block the next one. */
  limit: number;
  windowMinutes: number;
  /** Only failures count, and a success in between clears them (the email rule). */
  failuresOnly: boolean;
}

/** 20 attempts a minute from one address, whatever their outcome (the limit can be raised for tests). */
export function addressRule(limit: number = LOGIN_IP_ATTEMPT_LIMIT): ThrottleRule {
  return { kind: "address", limit, windowMinutes: LOGIN_IP_WINDOW_MINUTES, failuresOnly: false };
}

/** 5 failed attempts for one email in 15 minutes, with no success since. */
export const EMAIL_RULE: ThrottleRule = {
  kind: "email",
  limit: LOGIN_EMAIL_FAILURE_LIMIT,
  windowMinutes: LOGIN_EMAIL_WINDOW_MINUTES,
  failuresOnly: true,
};

export function ruleFor(kind: ThrottleKind, addressLimit?: number): ThrottleRule {
  return kind === "address" ? addressRule(addressLimit) : EMAIL_RULE;
}

export interface AttemptMark {
  /** ISO-8601 time the attempt was recorded. */
  at: string;
  succeeded: boolean;
}

function windowMs(rule: ThrottleRule) {
  return rule.windowMinutes * 60_000;
}

/**
 * THE rule. `newestFirst` is one key's recorded attempts up to `now`, newest first (at least the newest
 * `rule.limit` inside the window). Attempts at or before `liftedAt` (an admin lifted the block) do not
 * count. Returns when the block in force at `now` ends, or null when the next attempt may go ahead.
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
  const counted: AttemptMark[] = [];
  for (let index = start; index < newestFirst.length; index++) {
    const attempt = newestFirst[index]!;
    const at = Date.parse(attempt.at);
    if (at > now.getTime()) continue;
    if (at <= since || at <= lifted) break;
    counted.push(attempt);
    if (counted.length === rule.limit) break;
  }
  if (counted.length < rule.limit) return null;
  // Failures count only until the last success: a user who got in is not locked out by old typos.
  if (rule.failuresOnly && counted.some((attempt) => attempt.succeeded)) return null;
  const end = Date.parse(counted[counted.length - 1]!.at) + windowMs(rule);
  return end > now.getTime() ? new Date(end) : null;
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
 * refuses. `oldestFirst` is the key's attempts in time order; `lifts` the times an admin lifted its block,
 * in any order. Returns null when the rule never refused anything in these attempts.
 */
export function latestBlock(
  rule: ThrottleRule,
  oldestFirst: readonly AttemptMark[],
  lifts: readonly string[],
): BlockPeriod | null {
  const liftTimes = lifts.map((at) => Date.parse(at)).sort((a, b) => a - b);
  const liftBefore = (time: number) => {
    let found: number | undefined;
    for (const lift of liftTimes) if (lift <= time) found = lift;
    return found === undefined ? null : new Date(found).toISOString();
  };
  const newestFirst = [...oldestFirst].reverse();
  for (let index = 0; index < newestFirst.length; index++) {
    const attempt = newestFirst[index]!;
    const at = new Date(attempt.at);
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
