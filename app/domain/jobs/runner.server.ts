import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db, Tx } from "~/db/transaction";
import {
  buryExhaustedJobs,
  claimJobs,
  completeJob,
  extendLease,
  failJob,
  hasDueJobs,
  PermanentJobError,
  RetryLater,
  type JobHandler,
  type JobRow,
} from "./jobs.server";
import { queueDueSchedules } from "./schedules.server";
import type { ScheduleDefinition } from "./schedule-slots";

export interface WorkerConfig {
  /** How long a claim holds a job; a job whose process died is taken again after it. */
  leaseMs: number;
  /** How often an idle worker looks for work and due schedules. */
  pollMs: number;
  /** The first retry's delay; it doubles with each attempt (with jitter). */
  backoffMs: number;
  /** Jobs one process runs at once. */
  concurrency: number;
  /** How often the process writes its heartbeat (default: every 15 s, or every poll if longer). */
  heartbeatMs?: number;
}

export interface WorkerLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface WorkerOptions {
  db: Db;
  handlers: Readonly<Record<string, JobHandler>>;
  schedules: readonly ScheduleDefinition[];
  config: WorkerConfig;
  /** The site's time zone, read when schedules are looked at (it is a setting). */
  timeZone: () => Promise<string>;
  /** The clock (tests move it themselves). */
  now?: () => Date;
  log?: WorkerLog;
  /** Names this process in the leases it holds (default: host, pid and a random part). */
  owner?: string;
  /** Told when a job died or a scheduled run failed (the alerts); never fails the job itself. */
  onProblem?: (problem: {
    kind: "dead" | "runFailed";
    job: JobRow;
    error: string;
  }) => Promise<void>;
  /**
   * Called after each heartbeat it writes (the stale-schedule check, alerts.server.ts); a failure is
   * logged and never stops the worker.
   */
  onBeat?: (at: Date) => Promise<void>;
  /** Told after each job it finished or gave up on (tests wait on it). */
  onSettled?: (job: JobRow, outcome: "succeeded" | "failed" | "dead" | "lost") => void;
}

export interface Worker {
  readonly owner: string;
  /** Takes no new job, and waits for the running ones up to `timeoutMs`; true when they all ended. */
  stop(timeoutMs: number): Promise<boolean>;
  /** One round of work now (schedules, claims), for tests that drive the clock themselves. */
  tick(): Promise<void>;
  /** Resolves when no job of this process is running. */
  idle(): Promise<void>;
  /** When this process last looked for work (its heartbeat). */
  lastBeat(): Date | null;
}

const quiet: WorkerLog = { info() {}, warn() {}, error() {} };

function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}

/**
 * The durable background worker of one process (ADR 27): it queues the due schedules' runs, claims jobs
 * under a lease, runs each with its type's handler (keeping the lease while it works), writes the run
 * log for scheduled runs, and completes, retries or buries each job. Any number of processes on one
 * database share the work.
 */
export function startWorker(options: WorkerOptions, { autoStart = true } = {}): Worker {
  const { db, handlers, schedules, config } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? quiet;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const running = new Map<number, Promise<void>>();
  let stopping = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ticking: Promise<void> | undefined;
  let beat: Date | null = null;
  let wake: (() => void) | undefined;

  async function runJob(job: JobRow) {
    const id = Number(job.id);
    const startedAt = now();
    const runId = job.schedule ? await openRun(db, job, startedAt) : null;
    const keepLease = setInterval(
      () =>
        void extendLease(db, { id, owner, leaseMs: config.leaseMs, now: now() }).catch((error) =>
          log.warn({ err: error, job: id }, "could not extend a job's lease"),
        ),
      Math.max(50, Math.floor(config.leaseMs / 3)),
    );
    let outcome: "succeeded" | "failed" | "dead" | "lost";
    try {
      const handler = handlers[job.type];
      if (!handler) throw new Error(`No handler for the job type "${job.type}"`);
      let completed: boolean | undefined;
      const complete = async (trx: Tx) =>
        (completed = await completeJob(trx, { id, owner, now: now() }));
      const counts =
        (await handler({ db, now: now(), payload: JSON.parse(job.payload), job, complete })) ?? {};
      clearInterval(keepLease);
      // Completed in the handler's transaction, or now. A transaction that called `complete` and then
      // rolled back threw, so it never gets here.
      const done = completed ?? (await completeJob(db, { id, owner, now: now() }));
      outcome = done ? "succeeded" : "lost";
      if (runId !== null) await closeRun(db, runId, { status: "succeeded", counts, at: now() });
    } catch (error) {
      clearInterval(keepLease);
      const text = errorText(error);
      const state = await failJob(db, {
        job,
        owner,
        error: text,
        now: now(),
        backoffMs: config.backoffMs,
        retryAt: error instanceof RetryLater ? error.at : undefined,
        permanent: error instanceof PermanentJobError,
      });
      outcome = state ?? "lost";
      if (runId !== null) await closeRun(db, runId, { status: "failed", error: text, at: now() });
      // Staff hear of a job that died and of a scheduled run that failed (alerts.server.ts).
      if (options.onProblem && (state === "dead" || (state && runId !== null)))
        await options
          .onProblem({ kind: state === "dead" ? "dead" : "runFailed", job, error: text })
          .catch((problem) => log.warn({ err: problem }, "could not raise an alert"));
      const level = state === "dead" ? "error" : "warn";
      log[level](
        { job: id, type: job.type, attempt: job.attempts, err: error },
        `job ${state ?? "lost"}`,
      );
    }
    options.onSettled?.(job, outcome);
  }

  let beatWritten = 0;
  const heartbeatMs = config.heartbeatMs ?? Math.max(config.pollMs, 15_000);

  async function round() {
    const at = now();
    beat = at;
    if (at.getTime() - beatWritten >= heartbeatMs) {
      try {
        await writeHeartbeat(db, owner, at);
        beatWritten = at.getTime();
      } catch (error) {
        log.warn({ err: error }, "could not write the worker's heartbeat");
      }
      if (options.onBeat)
        await options
          .onBeat(at)
          .catch((error) => log.warn({ err: error }, "could not check for stale schedules"));
    }
    try {
      if (schedules.length > 0)
        await queueDueSchedules(db, schedules, { now: at, timeZone: await options.timeZone() });
    } catch (error) {
      log.error({ err: error }, "could not queue the schedules' runs");
    }
    let claimed = 0;
    const free = config.concurrency - running.size;
    if (!stopping && free > 0 && (await hasDueJobs(db, at))) {
      await buryExhaustedJobs(db, at);
      const jobs = await claimJobs(db, { owner, limit: free, leaseMs: config.leaseMs, now: at });
      claimed = jobs.length;
      for (const job of jobs) {
        const id = Number(job.id);
        const work = runJob(job)
          .catch((error) => log.error({ err: error, job: id }, "a job's result was not saved"))
          .finally(() => {
            running.delete(id);
            wake?.();
          });
        running.set(id, work);
      }
    }
    return claimed;
  }

  async function loop() {
    if (stopping) return;
    let claimed = 0;
    try {
      ticking = round().then((n) => void (claimed = n));
      await ticking;
    } catch (error) {
      log.error({ err: error }, "the worker could not look for jobs");
    }
    if (stopping) return;
    // Work found and room for more: look again at once; otherwise after the poll interval, or as soon
    // as a running job ends when every slot was busy.
    const delay = claimed > 0 && running.size < config.concurrency ? 0 : config.pollMs;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, delay);
      wake = running.size >= config.concurrency ? resolve : undefined;
    });
    wake = undefined;
    clearTimeout(timer);
    void loop();
  }

  if (autoStart) void loop();
  log.info({ owner }, "background worker started");

  return {
    owner,
    async stop(timeoutMs) {
      stopping = true;
      clearTimeout(timer);
      wake?.();
      await ticking?.catch(() => {});
      const all = Promise.all(running.values()).then(() => true);
      const limit = new Promise<boolean>((resolve) =>
        setTimeout(() => resolve(false), timeoutMs).unref(),
      );
      const ended = await Promise.race([all, limit]);
      if (!ended)
        log.warn(
          { running: [...running.keys()] },
          "stopped with jobs still running; their leases will run out",
        );
      // Gone from the health report at once rather than when its heartbeat grows old.
      await db
        .deleteFrom("job_workers")
        .where("owner", "=", owner)
        .execute()
        .catch(() => {});
      return ended;
    },
    async tick() {
      await round();
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
    lastBeat: () => beat,
  };
}

async function openRun(db: Db, job: JobRow, at: Date): Promise<number> {
  // A run left open by a process that died is closed first: its job is being run again.
  await db
    .updateTable("job_runs")
    .set({
      status: "failed",
      error: "The worker stopped during this run (its lease ran out)",
      finished_at: at.toISOString(),
    })
    .where("job_id", "=", Number(job.id))
    .where("status", "=", "running")
    .execute();
  const row = await db
    .insertInto("job_runs")
    .values({
      job_id: Number(job.id),
      schedule: job.schedule!,
      job_type: job.type,
      attempt: job.attempts,
      status: "running",
      counts: "{}",
      started_at: at.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function closeRun(
  db: Db,
  id: number,
  end: {
    status: "succeeded" | "failed";
    counts?: Record<string, number>;
    error?: string;
    at: Date;
  },
) {
  await db
    .updateTable("job_runs")
    .set({
      status: end.status,
      counts: JSON.stringify(end.counts ?? {}),
      error: end.error?.slice(0, 4000) ?? null,
      finished_at: end.at.toISOString(),
    })
    .where("id", "=", id)
    .execute();
}

/** This process is alive and looking for work (one row per process, written every heartbeatMs). */
async function writeHeartbeat(db: Db, owner: string, at: Date) {
  const iso = at.toISOString();
  await db
    .insertInto("job_workers")
    .values({ owner, started_at: iso, beat_at: iso })
    .onConflict((conflict) => conflict.column("owner").doUpdateSet({ beat_at: iso }))
    .execute();
}
