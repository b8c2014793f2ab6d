import { sql } from "kysely";
import { isPostgres } from "~/db/dialect";
import type { ExpressionBuilder, Selectable, Updateable } from "kysely";
import type { Database, JobsTable } from "~/db/schema";
import type { Db, Tx } from "~/db/transaction";
import { afterFailure, PENDING_STATES, waitIsFree, type AutomationError } from "./jobs";

// Durable jobs on either database (ADR 27). A job is queued inside the caller's transaction (a step), so
// it exists if and only if the change that asked for it committed. A worker claims jobs under a lease;
// a job whose lease ran out (its process died) is claimed again, so a handler may run more than once
// and must be idempotent. Never two at once: a lease is only taken over once it has run out.

export type JobRow = Selectable<JobsTable>;

/** What a handler is given. `now` is the worker's clock (injected, so tests move time themselves). */
export interface JobContext<Payload = unknown> {
  db: Db;
  now: Date;
  payload: Payload;
  job: JobRow;
  /**
   * A step: marks this job done inside the handler's own transaction, so its last write and the job's end
   * commit together (one commit instead of two: the mail path runs one job per message). False when the
   * lease was lost meanwhile. A handler that does not call it is completed by the worker after it returns.
   */
  complete: (trx: Tx) => Promise<boolean>;
}

/**
 * Runs one job of its type. Must be idempotent: the same job may run again after a crash (its effect
 * must then happen once). What it returns is the run's counts (logged for a scheduled run).
 */
export type JobHandler = (context: JobContext) => Promise<Record<string, number> | void>;

export interface NewJob {
  type: string;
  payload?: unknown;
  /** When it may run first (default: at once). */
  runAt?: Date;
  /**
   * Higher runs first: a due job is claimed before every due job of a lower priority, however long
   * those have waited (default 0; security mail is JOB_PRIORITY_URGENT).
   */
  priority?: number;
  maxAttempts?: number;
  /** While a job with this key waits or runs, another with the same key is not queued. */
  uniqueKey?: string;
  schedule?: string;
  now?: Date;
}

/**
 * A step: queues a job in the caller's transaction. Returns its id, or null when a job with the same
 * unique key is already waiting or running (nothing is queued then).
 */
export async function enqueueJob(trx: Tx, job: NewJob): Promise<number | null> {
  const row = await trx
    .insertInto("jobs")
    .values(jobRow(job))
    // Any conflict is the unique key's (the id is generated): the job is queued already.
    .onConflict((conflict) => conflict.doNothing())
    .returning("id")
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** A new job's row. */
function jobRow(job: NewJob) {
  const now = (job.now ?? new Date()).toISOString();
  return {
    type: job.type,
    payload: JSON.stringify(job.payload ?? {}),
    state: "queued",
    run_at: (job.runAt ?? job.now ?? new Date()).toISOString(),
    priority: job.priority ?? 0,
    attempts: 0,
    max_attempts: job.maxAttempts ?? 5,
    unique_key: job.uniqueKey ?? null,
    schedule: job.schedule ?? null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * A step: many jobs queued at once in the caller's transaction (a few hundred rows a statement), each
 * skipped like `enqueueJob`'s when its unique key waits or runs already. Returns how many were queued.
 */
export async function enqueueJobs(trx: Tx, jobs: readonly NewJob[]): Promise<number> {
  let queued = 0;
  for (let i = 0; i < jobs.length; i += 200) {
    const rows = await trx
      .insertInto("jobs")
      .values(jobs.slice(i, i + 200).map(jobRow))
      .onConflict((conflict) => conflict.doNothing())
      .returning("id")
      .execute();
    queued += rows.length;
  }
  return queued;
}

/** A job queued with this priority is claimed before every ordinary one (security mail). */
export const JOB_PRIORITY_URGENT = 10;

/** A job that may be claimed at `at`: waiting and due, or running on a lease that ran out. */
function isDue(at: string) {
  return (eb: ExpressionBuilder<Database, "jobs">) =>
    eb.or([
      eb.and([eb("state", "in", ["queued", "failed"]), eb("run_at", "<=", at)]),
      eb.and([eb("state", "=", "running"), eb("lease_until", "<", at)]),
    ]);
}

/**
 * Claims up to `limit` jobs that may run at `now` (waiting, retrying, or running under a lease that ran
 * out), the highest priority first and then the oldest, for `owner` until `now + leaseMs`; each claim
 * counts an attempt. Atomic: on PostgreSQL the rows are picked with FOR UPDATE SKIP LOCKED, so
 * processes claiming at once each get other jobs; on SQLite the one statement runs under the
 * database's single write lock.
 */
export async function claimJobs(
  db: Db,
  { owner, limit, leaseMs, now }: { owner: string; limit: number; leaseMs: number; now: Date },
): Promise<JobRow[]> {
  if (limit <= 0) return [];
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  const postgres = isPostgres(db);
  let due = db
    .selectFrom("jobs")
    .select("id")
    .where(isDue(at))
    .orderBy("priority", "desc")
    .orderBy("run_at")
    .orderBy("id")
    .limit(limit);
  if (postgres) due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable("jobs")
    .set({
      state: "running",
      lease_owner: owner,
      lease_until: until,
      attempts: sql<number>`attempts + 1`,
      updated_at: at,
    })
    .where("id", "in", due)
    .returningAll()
    .execute();
  return rows.sort(
    (a, b) =>
      b.priority - a.priority || a.run_at.localeCompare(b.run_at) || Number(a.id) - Number(b.id),
  );
}

/** Whether any job may be claimed at `now`: a plain read, so an idle worker takes no write lock. */
export async function hasDueJobs(db: Db, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const row = await db.selectFrom("jobs").select("id").where(isDue(at)).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Keeps a running job's lease while its handler works; false when the lease was lost to another. */
export async function extendLease(
  db: Db,
  { id, owner, leaseMs, now }: { id: number; owner: string; leaseMs: number; now: Date },
): Promise<boolean> {
  return updateLeasedJob(db, id, owner, {
    lease_until: new Date(now.getTime() + leaseMs).toISOString(),
  });
}

/**
 * Changes a running job only while `owner` still holds its lease, so a process that lost the lease
 * cannot overwrite what its successor does. True when the job was changed.
 */
async function updateLeasedJob(
  db: Db | Tx,
  id: number,
  owner: string,
  changes: Updateable<JobsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set(changes)
    .where("id", "=", id)
    .where("state", "=", "running")
    .where("lease_owner", "=", owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The job worked. False when its lease was lost meanwhile (another process has it now). */
export async function completeJob(
  db: Db | Tx,
  { id, owner, now }: { id: number; owner: string; now: Date },
): Promise<boolean> {
  const at = now.toISOString();
  return updateLeasedJob(db, id, owner, {
    state: "succeeded",
    lease_owner: null,
    lease_until: null,
    last_error: null,
    updated_at: at,
    finished_at: at,
  });
}

/**
 * The job's attempt failed with `error`: it waits for its next attempt (exponential backoff with
 * jitter), or is dead when it has had all its attempts or the failure is `permanent`. Returns the state it is left in, or null when
 * its lease was lost meanwhile.
 */
export async function failJob(
  db: Db | Tx,
  {
    job,
    owner,
    error,
    now,
    backoffMs,
    random = Math.random(),
    retryAt,
    permanent = false,
  }: {
    job: JobRow;
    owner: string;
    error: string;
    now: Date;
    backoffMs: number;
    random?: number;
    /**
     * When the other side said when to come back (HTTP 429's retry_after, RetryLater): instead of the
     * backoff, and within FREE_WAITS_MS of the job's queueing the attempt is given back.
     */
    retryAt?: Date;
    /** The failure can never turn out otherwise (PermanentJobError): dead now, whatever attempts are left. */
    permanent?: boolean;
  },
): Promise<"failed" | "dead" | null> {
  // A wait the other side asked for is not a failure: the attempt is given back (FREE_WAITS_MS).
  const freeWait = retryAt !== undefined && !permanent && waitIsFree(job.created_at, now);
  const attempts = freeWait ? Math.max(0, job.attempts - 1) : job.attempts;
  const computed = permanent
    ? ({ state: "dead" } as const)
    : afterFailure({ attempts, maxAttempts: job.max_attempts }, now, backoffMs, random);
  const next =
    computed.state === "failed" && retryAt
      ? { state: "failed" as const, runAt: retryAt }
      : computed;
  const at = now.toISOString();
  const updated = await updateLeasedJob(db, Number(job.id), owner, {
    state: next.state,
    run_at: next.state === "failed" ? next.runAt.toISOString() : job.run_at,
    last_error: error.slice(0, 4000),
    ...(freeWait ? { attempts } : {}),
    lease_owner: null,
    lease_until: null,
    updated_at: at,
    finished_at: next.state === "dead" ? at : null,
  });
  return updated ? next.state : null;
}

/**
 * A job whose lease ran out after its last attempt (its process died each time) is not taken again:
 * it is dead, so a job that crashes its worker cannot crash every worker in turn. Returns the jobs
 * marked dead.
 */
export async function buryExhaustedJobs(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  const result = await db
    .updateTable("jobs")
    .set({
      state: "dead",
      last_error: sql<string>`coalesce(last_error, 'The worker stopped during the last attempt (its lease ran out)')`,
      lease_owner: null,
      lease_until: null,
      updated_at: at,
      finished_at: at,
    })
    .where("state", "=", "running")
    .where("lease_until", "<", at)
    .whereRef("attempts", ">=", "max_attempts")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** What a change to a job answers: the job as it was before, or why it was refused. */
export type JobChangeResult =
  { ok: true; job: JobRow } | { ok: false; kind: "notFound" | "conflict"; error: AutomationError };

/**
 * A step: a failed or dead job is queued again now, with its attempts counted from zero. Refused when
 * the job is gone, is not failed or dead (a second click finds it queued: nothing changes), or another
 * job with its unique key is waiting.
 */
export async function requeueJob(trx: Tx, id: number, now: Date): Promise<JobChangeResult> {
  const job = await trx.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
  if (!job) return { ok: false, kind: "notFound", error: "admin.automation.errors.jobNotFound" };
  if (job.state !== "failed" && job.state !== "dead")
    return { ok: false, kind: "conflict", error: "admin.automation.errors.notRetriable" };
  if (job.unique_key) {
    const twin = await trx
      .selectFrom("jobs")
      .select("id")
      .where("unique_key", "=", job.unique_key)
      .where("state", "in", PENDING_STATES)
      .where("id", "!=", id)
      .executeTakeFirst();
    if (twin)
      return { ok: false, kind: "conflict", error: "admin.automation.errors.alreadyQueued" };
  }
  const at = now.toISOString();
  await trx
    .updateTable("jobs")
    .set({ state: "queued", run_at: at, attempts: 0, updated_at: at, finished_at: null })
    .where("id", "=", id)
    .where("state", "in", ["failed", "dead"])
    .execute();
  return { ok: true, job };
}

/**
 * A step: a failed or dead job is removed (it will not run again). Its runs in the log stay, without
 * the link to it.
 */
export async function deleteProblemJob(trx: Tx, id: number): Promise<JobChangeResult> {
  const job = await trx.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
  if (!job) return { ok: false, kind: "notFound", error: "admin.automation.errors.jobNotFound" };
  if (job.state !== "failed" && job.state !== "dead")
    return { ok: false, kind: "conflict", error: "admin.automation.errors.notDiscardable" };
  await trx
    .deleteFrom("jobs")
    .where("id", "=", id)
    .where("state", "in", ["failed", "dead"])
    .execute();
  return { ok: true, job };
}

/** Thrown by a handler told to come back later (HTTP 429): the next attempt is at `at`, not the backoff's. */
export class RetryLater extends Error {
  constructor(
    readonly at: Date,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Thrown by a handler whose failure another attempt cannot change (a mail server's 5xx refusal of the
 * message): the job is dead at once, without the retries left, and staff are alerted as for any dead
 * job. Retry on /admin/automation still queues it again (after the cause was fixed by hand).
 */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PermanentJobError";
  }
}
