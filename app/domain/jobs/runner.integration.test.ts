import { SelectQueryNode, UpdateQueryNode, type RootOperationNode } from "kysely";
import { hostname } from "node:os";
import { beforeEach, expect, it, vi } from "vitest";
import { inTransaction, type Db } from "~/db/transaction";
import { readRows } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { claimJobs, enqueueJob, type JobHandler } from "./jobs.server";
import { startWorker, type WorkerLog } from "./runner.server";
import type { ScheduleDefinition } from "./schedule-slots";
import { enqueueScheduleRun, queueDueSchedules } from "./schedules.server";

const T0 = new Date("2026-11-24T10:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const config = { leaseMs: 1000, pollMs: 10, backoffMs: 100, concurrency: 2 };
/** A poll interval no test waits out: a worker that finds its next job in time did not wait for it. */
const HOUR_MS = 60 * 60_000;

/** Handlers that wait until the test lets them go. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open: () => open() };
}

/** A worker's log, kept: what operators read. */
function keptLog() {
  const lines: { level: "info" | "warn" | "error"; object: object; message: string }[] = [];
  const log: WorkerLog = {
    info: (object, message) => void lines.push({ level: "info", object, message }),
    warn: (object, message) => void lines.push({ level: "warn", object, message }),
    error: (object, message) => void lines.push({ level: "error", object, message }),
  };
  return { log, lines };
}

/** A statement that names `table` (its tables are nodes of the query's tree). */
const names = (node: RootOperationNode, table: string) =>
  JSON.stringify(node).includes(`"name":"${table}"`);

/** `db` whose statements fail while `failing` says so, each with its own error (kept in `errors`). */
function breakable(db: Db, failing: (node: RootOperationNode) => boolean) {
  const errors: Error[] = [];
  const broken = db.withPlugin({
    transformQuery: ({ node }) => {
      if (!failing(node)) return node;
      const error = new Error(`the database refused (${errors.length + 1})`);
      errors.push(error);
      throw error;
    },
    transformResult: async ({ result }) => result,
  });
  return { db: broken, errors };
}

describeEachDatabase("the job worker", (app) => {
  beforeEach(async () => {
    const db = app().db;
    await db.deleteFrom("job_runs").execute();
    await db.deleteFrom("jobs").execute();
    await db.deleteFrom("job_schedules").execute();
    await db.deleteFrom("job_workers").execute();
  });

  const jobs = () => app().db.selectFrom("jobs").selectAll().orderBy("id").execute();
  const runs = () => app().db.selectFrom("job_runs").selectAll().orderBy("id").execute();
  const queue = (type: string, options: { maxAttempts?: number; runAt?: Date } = {}) =>
    inTransaction(app().db, (trx) => enqueueJob(trx, { type, now: T0, ...options }));

  it("keeps a failure's stack in the job's last error, and a thrown text as it is", async () => {
    const handlers: Record<string, JobHandler> = {
      "t.error": async () => {
        throw new Error("the handler broke");
      },
      "t.text": async () => {
        // Some libraries throw plain values; staff still see what was thrown.
        throw "a thrown text";
      },
    };
    await queue("t.error", { maxAttempts: 3 });
    await queue("t.text", { maxAttempts: 3 });
    const worker = steppedWorker({ db: app().db, handlers, config, now: () => at(1) });
    await worker.tick();
    await worker.idle();
    const [error, text] = await jobs();
    expect(error).toMatchObject({ state: "failed", attempts: 1 });
    // The stack says where it broke: the message's line, then the frames.
    expect(error!.last_error).toMatch(/^Error: the handler broke\n\s+at /);
    expect(text).toMatchObject({ state: "failed", attempts: 1, last_error: "a thrown text" });
    expect(await worker.stop(1000)).toBe(true);
  });

  it("names its leases by host, process and a part of its own when no owner is given", async () => {
    await queue("t.ok");
    const handlers: Record<string, JobHandler> = { "t.ok": async () => {} };
    const worker = steppedWorker({ db: app().db, handlers, config, now: () => at(1) });
    const other = steppedWorker({ db: app().db, handlers, config, now: () => at(1) });
    const host = hostname().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(worker.owner).toMatch(new RegExp(`^${host}:${process.pid}:[0-9a-f]{6}$`));
    // Two workers of one process never take each other's leases.
    expect(other.owner).not.toBe(worker.owner);
    await worker.tick();
    await worker.idle();
    expect(await readRows(app().db, "job_workers", ["owner"], {})).toEqual([
      { owner: worker.owner },
    ]);
    await Promise.all([worker.stop(1000), other.stop(1000)]);
  });

  it("keeps a running job's lease, a third of the lease at a time, and leaves no timer once it ended", async () => {
    // Only the lease's timer is the test's to move; the databases keep their own timers.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const db = app().db;
      let clock = T0;
      const held = gate();
      const handlers: Record<string, JobHandler> = {
        "t.long": async () => held.wait(),
        "t.long-broken": async () => {
          await held.wait();
          throw new Error("broke after a while");
        },
      };
      await queue("t.long");
      await queue("t.long-broken", { maxAttempts: 3 });
      // The worker's writes, counted as it makes them (a statement is built when it is sent).
      let updates = 0;
      const worker = steppedWorker({
        db: db.withPlugin({
          transformQuery: ({ node }) => {
            if (UpdateQueryNode.is(node)) updates += 1;
            return node;
          },
          transformResult: async ({ result }) => result,
        }),
        handlers,
        config: { ...config, leaseMs: 3000 },
        now: () => clock,
      });
      await worker.tick();
      const leases = async () => (await jobs()).map((job) => job.lease_until);
      expect(await leases()).toEqual([at(3000).toISOString(), at(3000).toISOString()]);
      // Two seconds on, a third of the lease has passed: each lease runs three seconds from now. Not
      // before: a lease kept more often only adds writes.
      clock = at(2000);
      const claimed = updates;
      vi.advanceTimersByTime(999);
      expect(updates).toBe(claimed);
      vi.advanceTimersByTime(1);
      expect(updates).toBe(claimed + 2);
      await expect.poll(leases).toEqual([at(5000).toISOString(), at(5000).toISOString()]);
      held.open();
      await worker.idle();
      expect((await jobs()).map((job) => job.state)).toEqual(["succeeded", "failed"]);
      // A lease timer left running would write to the database every second for ever.
      expect(vi.getTimerCount()).toBe(0);
      expect(await worker.stop(1000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts a job as lost when its lease ran out and another process took it, and leaves it to that one", async () => {
    const db = app().db;
    const held = gate();
    const settled: string[] = [];
    const handlers: Record<string, JobHandler> = {
      "t.slow": async () => held.wait(),
      "t.slow-broken": async () => {
        await held.wait();
        throw new Error("broke after its lease ran out");
      },
    };
    await queue("t.slow", { maxAttempts: 3 });
    await queue("t.slow-broken", { maxAttempts: 3 });
    const worker = steppedWorker({
      db,
      handlers,
      config,
      now: () => at(1),
      owner: "a",
      onSettled: (job, outcome) => void settled.push(`${job.type} ${outcome}`),
    });
    await worker.tick();
    // Process a looks dead to the others: its leases ran out, and b took both jobs.
    expect(
      await claimJobs(db, { owner: "b", limit: 2, leaseMs: 1000, now: at(5000) }),
    ).toHaveLength(2);
    held.open();
    await worker.idle();
    expect(settled.sort()).toEqual(["t.slow lost", "t.slow-broken lost"]);
    expect(
      (await jobs()).map((job) => [job.state, job.lease_owner, job.attempts, job.last_error]),
    ).toEqual([
      ["running", "b", 2, null],
      ["running", "b", 2, null],
    ]);
    expect(await worker.stop(1000)).toBe(true);
  });

  const nightly: ScheduleDefinition = {
    name: "t.nightly",
    cron: "0 3 * * *",
    jobType: "t.export",
    payload: { format: "csv" },
    maxAttempts: 2,
  };

  it("logs a scheduled run's failure with its error cut to 4,000 characters, and tells staff before the job is dead", async () => {
    const db = app().db;
    let clock = at(1);
    const problems: string[] = [];
    const payloads: unknown[] = [];
    const long = `the export broke: ${"x".repeat(5000)}`;
    const handlers: Record<string, JobHandler> = {
      "t.export": async ({ payload }) => {
        payloads.push(payload);
        throw new Error(long);
      },
    };
    await inTransaction(db, (trx) => enqueueScheduleRun(trx, nightly, { now: T0 }));
    const worker = steppedWorker({
      db,
      handlers,
      config,
      now: () => clock,
      onProblem: async ({ kind, job, error }) =>
        void problems.push(`${kind} ${job.type} ${error.slice(0, 24)}`),
    });
    await worker.tick();
    await worker.idle();
    expect(payloads).toEqual([{ format: "csv" }]);
    const [job] = await jobs();
    expect(job).toMatchObject({ state: "failed", attempts: 1, max_attempts: 2 });
    expect(job!.last_error).toBe(`Error: ${long}`.slice(0, 4000));
    expect(await runs()).toMatchObject([
      {
        job_id: job!.id,
        schedule: "t.nightly",
        attempt: 1,
        status: "failed",
        error: `Error: ${long}`.slice(0, 4000),
        started_at: at(1).toISOString(),
        finished_at: at(1).toISOString(),
      },
    ]);
    expect(problems).toEqual(["runFailed t.export Error: the export broke:"]);

    // Its last attempt: the run failed again and the job is dead, said once, as dead.
    clock = at(60_000);
    await worker.tick();
    await worker.idle();
    expect((await jobs())[0]).toMatchObject({ state: "dead", attempts: 2 });
    expect((await runs()).map((run) => [run.attempt, run.status])).toEqual([
      [1, "failed"],
      [2, "failed"],
    ]);
    expect(problems).toEqual([
      "runFailed t.export Error: the export broke:",
      "dead t.export Error: the export broke:",
    ]);
    expect(await worker.stop(1000)).toBe(true);
  });

  it("shows a run as running until it ends, and closes the run of a process that died before running it again", async () => {
    const db = app().db;
    const held = gate();
    let calls = 0;
    const handlers: Record<string, JobHandler> = {
      "t.export": async () => {
        calls += 1;
        if (calls === 1) await held.wait();
        return { rows: 12 };
      },
    };
    await inTransaction(db, (trx) => enqueueScheduleRun(trx, nightly, { now: T0 }));
    const worker = (owner: string, now: Date) =>
      steppedWorker({ db, handlers, config, now: () => now, owner });
    const first = worker("a", at(1));
    await first.tick();
    await expect.poll(() => calls).toBe(1);
    expect(await runs()).toMatchObject([
      { attempt: 1, status: "running", counts: "{}", error: null, finished_at: null },
    ]);
    // Process a stopped answering: its lease ran out and b runs the job again.
    const second = worker("b", at(5000));
    await second.tick();
    await second.idle();
    expect(await runs()).toMatchObject([
      {
        attempt: 1,
        status: "failed",
        error: "The worker stopped during this run (its lease ran out)",
        finished_at: at(5000).toISOString(),
      },
      { attempt: 2, status: "succeeded", counts: '{"rows":12}', error: null },
    ]);
    held.open();
    await first.idle();
    await Promise.all([first.stop(1000), second.stop(1000)]);
  });

  it("queues a schedule's runs with three attempts by default and its payload, and nothing before its slot", async () => {
    const db = app().db;
    const hourly: ScheduleDefinition = { name: "t.hourly", cron: "0 * * * *", jobType: "t.count" };
    expect(await queueDueSchedules(db, [], { now: T0, timeZone: "UTC" })).toEqual([]);
    // First sight, then a look before its first slot: nothing queued either time.
    for (const now of [at(1), at(30 * 60_000)])
      expect(await queueDueSchedules(db, [hourly], { now, timeZone: "UTC" })).toEqual([]);
    expect(await jobs()).toEqual([]);
    await queueDueSchedules(db, [hourly], { now: at(HOUR_MS), timeZone: "UTC" });
    expect(await jobs()).toMatchObject([
      { type: "t.count", payload: "{}", max_attempts: 3, schedule: "t.hourly" },
    ]);
  });

  it("writes its heartbeat every 15 s by default, the moment one is due, and says when it last looked", async () => {
    const db = app().db;
    let clock = T0;
    const beats: string[] = [];
    const worker = steppedWorker({
      db,
      handlers: {},
      config,
      now: () => clock,
      owner: "beating",
      onBeat: async (beat) => void beats.push(beat.toISOString()),
    });
    const written = async () =>
      (await readRows(db, "job_workers", ["beat_at"], { owner: "beating" })).map(
        (row) => row.beat_at,
      );
    expect(worker.lastBeat()).toBeNull();
    for (const ms of [0, 14_999, 15_000]) {
      clock = at(ms);
      await worker.tick();
      expect(worker.lastBeat()).toEqual(clock);
    }
    expect(await written()).toEqual([at(15_000).toISOString()]);
    expect(beats).toEqual([T0.toISOString(), at(15_000).toISOString()]);
    expect(await worker.stop(1000)).toBe(true);
  });

  it("runs no more jobs at once than its concurrency, however often it looks, and logs no error", async () => {
    const db = app().db;
    const held = gate();
    const started: number[] = [];
    const { log, lines } = keptLog();
    const handlers: Record<string, JobHandler> = {
      "t.slow": async ({ job }) => {
        started.push(Number(job.id));
        await held.wait();
      },
    };
    for (let i = 0; i < 3; i++) await queue("t.slow");
    const worker = steppedWorker({ db, handlers, config, now: () => at(1), log });
    await worker.tick();
    await worker.tick();
    expect(started).toHaveLength(2);
    expect((await jobs()).map((job) => job.state)).toEqual(["running", "running", "queued"]);
    held.open();
    await worker.idle();
    await worker.tick();
    await worker.idle();
    expect((await jobs()).map((job) => job.state)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(await worker.stop(1000)).toBe(true);
    expect(lines.filter((line) => line.level !== "info")).toEqual([]);
  });

  it("logs each job it gave up on: a failed one and a lost one as warnings, a dead one as an error", async () => {
    const db = app().db;
    const held = gate();
    const { log, lines } = keptLog();
    const settled: string[] = [];
    const thrown = {
      broken: new Error("the handler broke"),
      fatal: new Error("the handler broke for good"),
      late: new Error("broke after its lease ran out"),
    };
    const handlers: Record<string, JobHandler> = {
      "t.broken": async () => {
        throw thrown.broken;
      },
      "t.fatal": async () => {
        throw thrown.fatal;
      },
      "t.late": async () => {
        await held.wait();
        throw thrown.late;
      },
    };
    const broken = await queue("t.broken", { maxAttempts: 2 });
    const fatal = await queue("t.fatal", { maxAttempts: 1 });
    const late = await queue("t.late", { maxAttempts: 3 });
    const worker = steppedWorker({
      db,
      handlers,
      // The failed job's retry is not due while the test runs: only the late job is left to take.
      config: { ...config, concurrency: 3, backoffMs: HOUR_MS },
      now: () => at(1),
      owner: "a",
      log,
      onSettled: (job, outcome) => void settled.push(`${job.type} ${outcome}`),
    });
    await worker.tick();
    await expect.poll(() => settled.length).toBe(2);
    // The late job's lease ran out and another process took it before its handler failed.
    expect(
      await claimJobs(db, { owner: "b", limit: 3, leaseMs: 1000, now: at(5000) }),
    ).toHaveLength(1);
    held.open();
    await worker.idle();
    expect(settled.sort()).toEqual(["t.broken failed", "t.fatal dead", "t.late lost"]);
    const ended = lines.filter((line) => line.level !== "info");
    expect(
      ended.sort((a, b) => (a.object as { job: number }).job - (b.object as { job: number }).job),
    ).toEqual([
      {
        level: "warn",
        object: { job: broken, type: "t.broken", attempt: 1, err: thrown.broken },
        message: "job failed",
      },
      {
        level: "error",
        object: { job: fatal, type: "t.fatal", attempt: 1, err: thrown.fatal },
        message: "job dead",
      },
      {
        level: "warn",
        object: { job: late, type: "t.late", attempt: 1, err: thrown.late },
        message: "job lost",
      },
    ]);
    expect(lines.filter((line) => line.level === "info")).toEqual([
      { level: "info", object: { owner: "a" }, message: "background worker started" },
    ]);
    expect(await worker.stop(1000)).toBe(true);
  });

  it("logs what it could not do and goes on: its heartbeat, the stale-schedule check, the schedules, an alert", async () => {
    const { db, errors } = breakable(app().db, (node) => names(node, "job_workers"));
    const { log, lines } = keptLog();
    const thrown = {
      zone: new Error("the settings could not be read"),
      stale: new Error("the stale-schedule check broke"),
      alert: new Error("the alert could not be queued"),
      job: new Error("the handler broke for good"),
    };
    const handlers: Record<string, JobHandler> = {
      "t.fatal": async () => {
        throw thrown.job;
      },
    };
    const id = await queue("t.fatal", { maxAttempts: 1 });
    const worker = steppedWorker({
      db,
      handlers,
      schedules: [nightly],
      timeZone: async () => {
        throw thrown.zone;
      },
      config,
      now: () => at(1),
      log,
      onBeat: async () => {
        throw thrown.stale;
      },
      onProblem: async () => {
        throw thrown.alert;
      },
    });
    await worker.tick();
    await worker.idle();
    // The job ran all the same, and died as it would have.
    expect((await jobs()).map((job) => [job.id, job.state])).toEqual([[id, "dead"]]);
    expect(errors).toHaveLength(1);
    expect(lines.filter((line) => line.level !== "info")).toEqual([
      {
        level: "warn",
        object: { err: errors[0] },
        message: "could not write the worker's heartbeat",
      },
      {
        level: "warn",
        object: { err: thrown.stale },
        message: "could not check for stale schedules",
      },
      {
        level: "error",
        object: { err: thrown.zone },
        message: "could not queue the schedules' runs",
      },
      { level: "warn", object: { err: thrown.alert }, message: "could not raise an alert" },
      {
        level: "error",
        object: { job: id, type: "t.fatal", attempt: 1, err: thrown.job },
        message: "job dead",
      },
    ]);
    expect(await worker.stop(1000)).toBe(true);
  });

  it("logs a lease it could not keep and a result it could not save", async () => {
    // Only the lease's timer is the test's to move; the databases keep their own timers.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      let failing = false;
      const { db, errors } = breakable(
        app().db,
        (node) => failing && UpdateQueryNode.is(node) && names(node, "jobs"),
      );
      const held = gate();
      const { log, lines } = keptLog();
      const handlers: Record<string, JobHandler> = { "t.long": async () => held.wait() };
      const id = await queue("t.long");
      const worker = steppedWorker({ db, handlers, config, now: () => at(1), log });
      await worker.tick();
      // From now on the database refuses every change to a job: the lease, then the job's end.
      failing = true;
      vi.advanceTimersByTime(config.leaseMs / 3);
      await expect
        .poll(() => lines.filter((line) => line.level !== "info"))
        .toEqual([
          {
            level: "warn",
            object: { err: errors[0], job: id },
            message: "could not extend a job's lease",
          },
        ]);
      held.open();
      await worker.idle();
      expect(errors).toHaveLength(3);
      expect(lines.filter((line) => line.level !== "info").slice(1)).toEqual([
        // Neither its success nor, after that, its failure could be written: the lease will run out.
        {
          level: "error",
          object: { err: errors[2], job: id },
          message: "a job's result was not saved",
        },
      ]);
      failing = false;
      expect((await jobs()).map((job) => job.state)).toEqual(["running"]);
      expect(await worker.stop(1000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("logs a round that could not look for jobs, and looks again", async () => {
    let failing = true;
    const { db, errors } = breakable(
      app().db,
      (node) => failing && SelectQueryNode.is(node) && names(node, "jobs"),
    );
    const { log, lines } = keptLog();
    const worker = startWorker({
      db,
      handlers: {},
      schedules: [],
      config,
      timeZone: async () => "UTC",
      now: () => at(1),
      log,
    });
    await expect.poll(() => errors.length).toBeGreaterThan(0);
    failing = false;
    expect(await worker.stop(1000)).toBe(true);
    expect(lines.filter((line) => line.level !== "info")).toEqual(
      errors.map((error) => ({
        level: "error",
        object: { err: error },
        message: "the worker could not look for jobs",
      })),
    );
  });

  it("stops after its time limit when a job does not end, and says which job it left", async () => {
    const db = app().db;
    const held = gate();
    const { log, lines } = keptLog();
    const id = await queue("t.stuck");
    const handlers: Record<string, JobHandler> = { "t.stuck": async () => held.wait() };
    const worker = steppedWorker({ db, handlers, config, now: () => at(1), log, owner: "stuck" });
    const idle = steppedWorker({ db, handlers, config, now: () => at(1), log, owner: "idle" });
    await worker.tick();
    await idle.tick();
    expect(await worker.stop(1)).toBe(false);
    expect(await idle.stop(1000)).toBe(true);
    expect(lines.filter((line) => line.level !== "info")).toEqual([
      {
        level: "warn",
        object: { running: [id] },
        message: "stopped with jobs still running; their leases will run out",
      },
    ]);
    // Gone from the health report even so.
    expect(await readRows(db, "job_workers", ["owner"], {})).toEqual([]);
    held.open();
    await worker.idle();
  });

  it("works on its own once started, and looks again at once while it has room", async () => {
    const db = app().db;
    let clock = T0;
    const handlers: Record<string, JobHandler> = {
      // The second job falls due while the first runs: only a worker that looks again at once,
      // rather than after its (hour-long) poll interval, takes it while the test waits.
      "t.first": async () => void (clock = at(60_000)),
      "t.second": async () => {},
    };
    await queue("t.first");
    await queue("t.second", { runAt: at(60_000) });
    const worker = startWorker({
      db,
      handlers,
      schedules: [],
      config: { ...config, pollMs: HOUR_MS },
      timeZone: async () => "UTC",
      now: () => clock,
    });
    await expect
      .poll(async () => (await jobs()).map((job) => job.state))
      .toEqual(["succeeded", "succeeded"]);
    expect(await worker.stop(1000)).toBe(true);
  });

  it("with every slot busy, takes the next job as soon as one ends", async () => {
    const db = app().db;
    const held = gate();
    const started: string[] = [];
    const handlers: Record<string, JobHandler> = {
      "t.first": async () => {
        started.push("t.first");
        await held.wait();
      },
      "t.second": async () => void started.push("t.second"),
    };
    await queue("t.first");
    await queue("t.second", { runAt: at(1) });
    const worker = startWorker({
      db,
      handlers,
      schedules: [],
      config: { ...config, concurrency: 1, pollMs: HOUR_MS },
      timeZone: async () => "UTC",
      now: () => at(1),
    });
    await expect.poll(() => started).toEqual(["t.first"]);
    held.open();
    await expect
      .poll(async () => (await jobs()).map((job) => job.state))
      .toEqual(["succeeded", "succeeded"]);
    expect(started).toEqual(["t.first", "t.second"]);
    expect(await worker.stop(1000)).toBe(true);
  });
});
