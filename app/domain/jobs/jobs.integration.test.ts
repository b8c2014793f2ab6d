import { DeleteQueryNode } from "kysely";
import { beforeEach, expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { heldTransaction, untilWaitingOnALock } from "../../../tests/support/held-transaction";
import { adminId } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { FREE_WAITS_MS } from "./jobs";
import { discardJob, loadAutomationPage, retryJob, runScheduleNow } from "./automation.server";
import type { ScheduleDefinition } from "./schedule-slots";
import {
  buryExhaustedJobs,
  claimJobs,
  completeJob,
  enqueueJob,
  failJob,
  hasDueJobs,
  JOB_PRIORITY_URGENT,
  PermanentJobError,
  RetryLater,
  type JobHandler,
  type JobRow,
} from "./jobs.server";
import { queueDueSchedules } from "./schedules.server";

const T0 = new Date("2026-11-24T10:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const config = { leaseMs: 1000, pollMs: 10, backoffMs: 100, concurrency: 4 };

describeEachDatabase("background jobs", (app, dialect) => {
  beforeEach(async () => {
    const db = app().db;
    await db.deleteFrom("job_runs").execute();
    await db.deleteFrom("jobs").execute();
    await db.deleteFrom("job_schedules").execute();
  });

  const jobs = () => app().db.selectFrom("jobs").selectAll().orderBy("id").execute();

  it("queues a job with the caller's change, and not at all when that change rolls back", async () => {
    const db = app().db;
    await expect(
      inTransaction(db, async (trx) => {
        await enqueueJob(trx, { type: "t.rolled-back", now: T0 });
        throw new Error("the caller's change failed");
      }),
    ).rejects.toThrow("the caller's change failed");
    const id = await inTransaction(db, (trx) =>
      enqueueJob(trx, { type: "t.kept", payload: { n: 1 }, now: T0 }),
    );
    const rows = await jobs();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id,
      type: "t.kept",
      payload: '{"n":1}',
      state: "queued",
      attempts: 0,
      max_attempts: 5,
      run_at: T0.toISOString(),
    });
  });

  it("never queues the same unique key twice while one waits, and again once it ended", async () => {
    const db = app().db;
    const enqueue = () =>
      inTransaction(db, (trx) => enqueueJob(trx, { type: "t.once", uniqueKey: "k1", now: T0 }));
    const first = await enqueue();
    expect(first).not.toBeNull();
    expect(await enqueue()).toBeNull();
    const [claimed] = await claimJobs(db, { owner: "a", limit: 5, leaseMs: 1000, now: T0 });
    expect(await enqueue()).toBeNull();
    expect(await completeJob(db, { id: Number(claimed!.id), owner: "a", now: at(10) })).toBe(true);
    expect(await enqueue()).not.toBeNull();
    expect((await jobs()).map((job) => job.state)).toEqual(["succeeded", "queued"]);
  });

  it(
    atOnce(dialect, "claims atomically: claims made at once share out the jobs, none twice"),
    async () => {
      const db = app().db;
      await inTransaction(db, async (trx) => {
        for (let i = 0; i < 30; i++) await enqueueJob(trx, { type: "t.share", now: T0 });
      });
      const claims = await Promise.all(
        ["a", "b", "c"].map((owner) => claimJobs(db, { owner, limit: 12, leaseMs: 1000, now: T0 })),
      );
      const ids = claims.flat().map((job) => Number(job.id));
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      expect(await claimJobs(db, { owner: "d", limit: 5, leaseMs: 1000, now: at(500) })).toEqual(
        [],
      );
    },
  );

  it("takes a job again when its lease ran out, and the first owner can no longer finish it", async () => {
    const db = app().db;
    await inTransaction(db, (trx) => enqueueJob(trx, { type: "t.lease", now: T0 }));
    const [job] = await claimJobs(db, { owner: "dead-process", limit: 1, leaseMs: 1000, now: T0 });
    expect(job!.attempts).toBe(1);
    expect(await claimJobs(db, { owner: "b", limit: 1, leaseMs: 1000, now: at(999) })).toEqual([]);
    const [again] = await claimJobs(db, { owner: "b", limit: 1, leaseMs: 1000, now: at(1001) });
    expect(again).toMatchObject({ id: job!.id, attempts: 2, lease_owner: "b" });
    expect(
      await completeJob(db, { id: Number(job!.id), owner: "dead-process", now: at(1002) }),
    ).toBe(false);
    expect(await completeJob(db, { id: Number(job!.id), owner: "b", now: at(1003) })).toBe(true);
  });

  it("retries with backoff, then the job is dead with its last error", async () => {
    const db = app().db;
    await inTransaction(db, (trx) => enqueueJob(trx, { type: "t.fail", maxAttempts: 2, now: T0 }));
    const [first] = await claimJobs(db, { owner: "a", limit: 1, leaseMs: 1000, now: T0 });
    expect(
      await failJob(db, {
        job: first!,
        owner: "a",
        error: "boom 1",
        now: at(10),
        backoffMs: 1000,
        random: 0,
      }),
    ).toBe("failed");
    const [waiting] = await jobs();
    expect(waiting).toMatchObject({
      state: "failed",
      last_error: "boom 1",
      run_at: at(510).toISOString(),
    });
    expect(await claimJobs(db, { owner: "a", limit: 1, leaseMs: 1000, now: at(509) })).toEqual([]);
    const [second] = await claimJobs(db, { owner: "a", limit: 1, leaseMs: 1000, now: at(510) });
    expect(
      await failJob(db, {
        job: second!,
        owner: "a",
        error: "boom 2",
        now: at(520),
        backoffMs: 1000,
      }),
    ).toBe("dead");
    expect((await jobs())[0]).toMatchObject({ state: "dead", attempts: 2, last_error: "boom 2" });
    expect(await claimJobs(db, { owner: "a", limit: 1, leaseMs: 1000, now: at(999_999) })).toEqual(
      [],
    );
  });

  it("claims the due jobs oldest first (then by id), none when asked for none, and says whether any is due", async () => {
    const db = app().db;
    await inTransaction(db, async (trx) => {
      await enqueueJob(trx, { type: "t.third", runAt: at(20), now: T0 });
      await enqueueJob(trx, { type: "t.second-a", runAt: at(10), now: T0 });
      await enqueueJob(trx, { type: "t.second-b", runAt: at(10), now: T0 });
      await enqueueJob(trx, { type: "t.first", runAt: at(0), now: T0 });
      await enqueueJob(trx, { type: "t.later", runAt: at(1000), now: T0 });
    });
    expect(await hasDueJobs(db, at(-1))).toBe(false);
    expect(await hasDueJobs(db, at(30))).toBe(true);
    expect(await claimJobs(db, { owner: "a", limit: 0, leaseMs: 1000, now: at(30) })).toEqual([]);
    const claimed = await claimJobs(db, { owner: "a", limit: 10, leaseMs: 1000, now: at(30) });
    expect(claimed.map((job) => job.type)).toEqual([
      "t.first",
      "t.second-a",
      "t.second-b",
      "t.third",
    ]);
    // The rest is later, and the claimed ones run under their lease: an idle worker writes nothing.
    expect(await hasDueJobs(db, at(30))).toBe(false);
  });

  it("claims an urgent job before every older ordinary one, but not before it is due", async () => {
    const db = app().db;
    await inTransaction(db, async (trx) => {
      for (let i = 0; i < 5; i++)
        await enqueueJob(trx, { type: `t.ordinary-${i}`, runAt: at(i), now: T0 });
      await enqueueJob(trx, {
        type: "t.urgent-later",
        runAt: at(1000),
        priority: JOB_PRIORITY_URGENT,
        now: T0,
      });
      await enqueueJob(trx, {
        type: "t.urgent",
        runAt: at(20),
        priority: JOB_PRIORITY_URGENT,
        now: T0,
      });
    });
    const claim = (limit: number, now: Date) =>
      claimJobs(db, { owner: "a", limit, leaseMs: 1000, now });
    expect((await claim(1, at(30))).map((job) => [job.type, job.priority])).toEqual([
      ["t.urgent", JOB_PRIORITY_URGENT],
    ]);
    // The urgent job not due yet waits its turn; the ordinary ones go oldest first.
    expect((await claim(2, at(30))).map((job) => job.type)).toEqual([
      "t.ordinary-0",
      "t.ordinary-1",
    ]);
    expect((await claim(10, at(1000))).map((job) => job.type)).toEqual([
      "t.urgent-later",
      "t.ordinary-2",
      "t.ordinary-3",
      "t.ordinary-4",
    ]);
  });

  if (dialect === "postgres")
    it("a claim made while another holds its jobs takes the others at once, never the same", async () => {
      const db = app().db;
      await inTransaction(db, async (trx) => {
        for (let i = 0; i < 2; i++) await enqueueJob(trx, { type: "t.held", now: T0 });
      });
      let first: JobRow[] = [];
      const held = await heldTransaction(db, async (trx) => {
        first = await claimJobs(trx, { owner: "a", limit: 1, leaseMs: 1000, now: T0 });
      });
      const second = claimJobs(db, { owner: "b", limit: 2, leaseMs: 1000, now: T0 });
      const answer = await Promise.race([
        second,
        untilWaitingOnALock(db).then(
          () => "waited for the other claim",
          () => "never waited",
        ),
      ]);
      await held.commit();
      expect(answer).toEqual([expect.objectContaining({ lease_owner: "b" })]);
      const ids = [...first, ...(await second)].map((job) => Number(job.id));
      expect(new Set(ids).size).toBe(2);
      expect((await jobs()).map((job) => [job.state, job.attempts])).toEqual([
        ["running", 1],
        ["running", 1],
      ]);
    });

  it("gives a wait after a failure only its own attempt back, and a retry no finish time", async () => {
    const db = app().db;
    await inTransaction(db, (trx) => enqueueJob(trx, { type: "t.mixed", maxAttempts: 3, now: T0 }));
    const [first] = await claimJobs(db, { owner: "a", limit: 1, leaseMs: 1000, now: T0 });
    await failJob(db, { job: first!, owner: "a", error: "broke", now: at(1), backoffMs: 100 });
    const [second] = await claimJobs(db, { owner: "a", limit: 1, leaseMs: 1000, now: at(1000) });
    expect(second!.attempts).toBe(2);
    expect(
      await failJob(db, {
        job: second!,
        owner: "a",
        error: "asked to wait",
        now: at(1001),
        backoffMs: 100,
        retryAt: at(5000),
      }),
    ).toBe("failed");
    expect((await jobs())[0]).toMatchObject({
      state: "failed",
      attempts: 1,
      run_at: at(5000).toISOString(),
      finished_at: null,
    });
  });

  it("buries a job whose process died during its last attempt instead of running it again", async () => {
    const db = app().db;
    await inTransaction(db, (trx) => enqueueJob(trx, { type: "t.crash", maxAttempts: 1, now: T0 }));
    await claimJobs(db, { owner: "a", limit: 1, leaseMs: 1000, now: T0 });
    expect(await buryExhaustedJobs(db, at(500))).toBe(0);
    expect(await buryExhaustedJobs(db, at(1001))).toBe(1);
    expect((await jobs())[0]).toMatchObject({ state: "dead" });
    expect((await jobs())[0]!.last_error).toMatch(/lease ran out/);
  });

  it("runs jobs through their handlers with the injected clock, retrying a failure until dead", async () => {
    const db = app().db;
    let clock = T0;
    const seen: { payload: unknown; now: string }[] = [];
    const handlers: Record<string, JobHandler> = {
      "t.ok": async ({ payload, now }) => {
        seen.push({ payload, now: now.toISOString() });
      },
      "t.broken": async () => {
        throw new Error("the handler broke");
      },
    };
    await inTransaction(db, async (trx) => {
      await enqueueJob(trx, { type: "t.ok", payload: { to: "x" }, now: T0 });
      await enqueueJob(trx, { type: "t.broken", maxAttempts: 3, now: T0 });
      await enqueueJob(trx, { type: "t.unknown", maxAttempts: 1, now: T0 });
    });
    const worker = steppedWorker({ db, handlers, config, now: () => clock });
    await worker.tick();
    await worker.idle();
    expect(seen).toEqual([{ payload: { to: "x" }, now: T0.toISOString() }]);
    let rows = await jobs();
    expect(rows.map((job) => [job.type, job.state, job.attempts])).toEqual([
      ["t.ok", "succeeded", 1],
      ["t.broken", "failed", 1],
      ["t.unknown", "dead", 1],
    ]);
    expect(rows[2]!.last_error).toMatch(/No handler for the job type "t.unknown"/);
    // Each retry waits longer; moving the clock a minute on each time lets it run again.
    for (const minutes of [1, 2]) {
      clock = at(minutes * 60_000);
      await worker.tick();
      await worker.idle();
    }
    rows = await jobs();
    expect(rows[1]).toMatchObject({ state: "dead", attempts: 3 });
    expect(rows[1]!.last_error).toMatch(/the handler broke/);
    expect(await worker.stop(1000)).toBe(true);
  });

  it("gives a wait its attempt back for a day after queueing, then counts it, so it still ends", async () => {
    const db = app().db;
    let clock = T0;
    let next: "wait" | "break" = "wait";
    const handlers: Record<string, JobHandler> = {
      "t.waits": async ({ now }) => {
        if (next === "wait") throw new RetryLater(new Date(now.getTime() + 1000), "asked to wait");
        throw new Error("the handler broke");
      },
    };
    await inTransaction(db, (trx) => enqueueJob(trx, { type: "t.waits", maxAttempts: 2, now: T0 }));
    const worker = steppedWorker({ db, handlers, config, now: () => clock });
    const run = async (when: Date) => {
      clock = when;
      await worker.tick();
      await worker.idle();
      return (await jobs())[0]!;
    };
    // Five waits in a row: more than its two attempts, yet none spent, each at the time it was told.
    for (let i = 0; i < 5; i++) {
      const row = await run(at(i * 1000));
      expect(row).toMatchObject({ state: "failed", attempts: 0 });
      expect(row.run_at).toBe(at(i * 1000 + 1000).toISOString());
    }
    // A real failure then waits the first attempt's backoff (50 to 100 ms), not one lengthened by waits.
    next = "break";
    const broken = await run(at(5000));
    expect(broken).toMatchObject({ state: "failed", attempts: 1 });
    expect(Date.parse(broken.run_at) - at(5000).getTime()).toBeLessThanOrEqual(100);
    // A day after it was queued, a wait counts: this one is its second and last attempt.
    next = "wait";
    const late = await run(at(FREE_WAITS_MS));
    expect(late).toMatchObject({ state: "dead", attempts: 2 });
    expect(late.last_error).toMatch(/asked to wait/);
    expect(await worker.stop(1000)).toBe(true);
  });

  it("ends a job in its handler's own transaction: with its write, and not when that rolls back", async () => {
    const db = app().db;
    const settled: string[] = [];
    const handlers: Record<string, JobHandler> = {
      // Writes its effect and ends the job in one transaction.
      "t.together": async ({ db, job, complete }) => {
        await inTransaction(db, async (trx) => {
          await trx
            .updateTable("jobs")
            .set({ last_error: "the effect" })
            .where("id", "=", job.id)
            .execute();
          expect(await complete(trx)).toBe(true);
        });
      },
      // Ends the job, then its transaction fails: neither the effect nor the end stays.
      "t.undone": async ({ db, job, complete }) => {
        await inTransaction(db, async (trx) => {
          await trx
            .updateTable("jobs")
            .set({ payload: '{"effect":true}' })
            .where("id", "=", job.id)
            .execute();
          await complete(trx);
          throw new Error("failed after ending its job");
        });
      },
    };
    await inTransaction(db, async (trx) => {
      await enqueueJob(trx, { type: "t.together", now: T0 });
      await enqueueJob(trx, { type: "t.undone", maxAttempts: 3, now: T0 });
    });
    const worker = steppedWorker({
      db,
      handlers,
      config,
      now: () => at(1),
      onSettled: (job, outcome) => void settled.push(`${job.type} ${outcome}`),
    });
    await worker.tick();
    await worker.idle();
    const rows = await jobs();
    // Ended by its handler: the worker counts it as succeeded and does not end it a second time.
    expect(rows[0]).toMatchObject({ state: "succeeded", attempts: 1, lease_owner: null });
    expect(rows[0]!.finished_at).toBe(at(1).toISOString());
    expect(rows[1]).toMatchObject({ state: "failed", attempts: 1, payload: "{}" });
    expect(rows[1]!.last_error).toMatch(/failed after ending its job/);
    expect(settled.sort()).toEqual(["t.together succeeded", "t.undone failed"]);
    expect(await worker.stop(1000)).toBe(true);
  });

  it("makes a job dead at its first attempt when its handler fails permanently, and tells staff", async () => {
    const db = app().db;
    let clock = at(1);
    const problems: { kind: string; type: string; error: string }[] = [];
    const handlers: Record<string, JobHandler> = {
      "t.refused": async () => {
        throw new PermanentJobError("550 mailbox unavailable");
      },
      "t.flaky": async () => {
        throw new Error("451 try again later");
      },
    };
    await inTransaction(db, async (trx) => {
      await enqueueJob(trx, { type: "t.refused", maxAttempts: 10, now: T0 });
      await enqueueJob(trx, { type: "t.flaky", maxAttempts: 10, now: T0 });
    });
    const worker = steppedWorker({
      db,
      handlers,
      config,
      now: () => clock,
      onProblem: async ({ kind, job, error }) =>
        void problems.push({ kind, type: job.type, error }),
    });
    await worker.tick();
    await worker.idle();
    const rows = await jobs();
    expect(rows.map((job) => [job.type, job.state, job.attempts])).toEqual([
      ["t.refused", "dead", 1],
      ["t.flaky", "failed", 1],
    ]);
    // Staff read which kind of failure it was.
    expect(rows[0]!.last_error).toMatch(/^PermanentJobError: 550 mailbox unavailable\n/);
    expect(rows[0]!.finished_at).toBe(at(1).toISOString());
    expect(problems.map(({ kind, type }) => [kind, type])).toEqual([["dead", "t.refused"]]);
    expect(problems[0]!.error).toMatch(/550 mailbox unavailable/);

    // A day later the other one was tried again; the refused one never (staff may Retry it by hand).
    clock = at(24 * 60 * 60 * 1000);
    await worker.tick();
    await worker.idle();
    expect((await jobs()).map((job) => [job.state, job.attempts])).toEqual([
      ["dead", 1],
      ["failed", 2],
    ]);
    expect(await worker.stop(1000)).toBe(true);
  });

  it("stops gracefully: the running job finishes, and nothing new is taken", async () => {
    const db = app().db;
    let release: () => void = () => {};
    const started: number[] = [];
    const handlers: Record<string, JobHandler> = {
      "t.slow": async ({ job }) => {
        started.push(Number(job.id));
        await new Promise<void>((resolve) => (release = resolve));
      },
    };
    await inTransaction(db, async (trx) => {
      for (let i = 0; i < 3; i++) await enqueueJob(trx, { type: "t.slow", now: T0 });
    });
    // Stop's last step, once its jobs have ended, deletes the worker's row (the health report's): the
    // test sees when it is taken, from the worker's queries.
    let leftReport = false;
    const worker = steppedWorker({
      db: db.withPlugin({
        transformQuery: ({ node }) => {
          if (DeleteQueryNode.is(node)) leftReport = true;
          return node;
        },
        transformResult: async ({ result }) => result,
      }),
      handlers,
      config: { ...config, concurrency: 1 },
      now: () => at(1),
    });
    await worker.tick();
    expect(started).toHaveLength(1);
    const stopped = worker.stop(5000);
    let answered = false;
    void stopped.then(() => (answered = true));
    // By the next task, stop has taken every step it can take before the job ends.
    await new Promise((resolve) => setImmediate(resolve));
    // The job still runs (its handler waits for `release`), and stop waits for it.
    expect((await jobs()).map((job) => job.state)).toEqual(["running", "queued", "queued"]);
    expect({ leftReport, answered }).toEqual({ leftReport: false, answered: false });
    release();
    expect(await stopped).toBe(true);
    expect(leftReport).toBe(true);
    expect((await jobs()).map((job) => job.state)).toEqual(["succeeded", "queued", "queued"]);
    // Its slot is free now, and a round still takes nothing: the worker stopped.
    await worker.tick();
    expect(started).toHaveLength(1);
    expect((await jobs()).map((job) => job.state)).toEqual(["succeeded", "queued", "queued"]);
  });

  const schedule: ScheduleDefinition = { name: "t.hourly", cron: "0 * * * *", jobType: "t.count" };

  it("queues a schedule's run once per slot, once after a long outage, and logs the run's counts", async () => {
    const db = app().db;
    let clock = at(30 * 60_000); // 10:30
    let runs = 0;
    const handlers: Record<string, JobHandler> = {
      "t.count": async () => ({ done: ++runs }),
    };
    const worker = (owner: string) =>
      steppedWorker({
        db,
        handlers,
        schedules: [schedule],
        config,
        now: () => clock,
        owner,
      });
    const [a, b] = [worker("a"), worker("b")];
    await a.tick();
    expect(runs).toBe(0); // first sight: waits for 11:00
    clock = new Date("2026-11-24T11:00:00.000Z");
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.idle(), b.idle()]);
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.idle(), b.idle()]);
    expect(runs).toBe(1);
    // Every process down for three days: one run when one comes back, not 72.
    clock = new Date("2026-11-27T11:20:00.000Z");
    for (let i = 0; i < 3; i++) {
      await Promise.all([a.tick(), b.tick()]);
      await Promise.all([a.idle(), b.idle()]);
    }
    expect(runs).toBe(2);
    const page = await loadAutomationPage(db, { schedules: [schedule], page: { page: 1 } });
    expect(page.schedules[0]).toMatchObject({
      name: "t.hourly",
      nextRunAt: "2026-11-27T12:00:00.000Z",
      lastRun: { status: "succeeded", counts: { done: 2 } },
    });
    expect(page.runs.map((run) => [run.status, run.counts])).toEqual([
      ["succeeded", { done: 2 }],
      ["succeeded", { done: 1 }],
    ]);
    expect(page.runs[1]!.startedAt).toBe("2026-11-24T11:00:00.000Z");
    const queued = await db.selectFrom("jobs").select("unique_key").orderBy("id").execute();
    expect(queued.map((job) => job.unique_key)).toEqual([
      "schedule:t.hourly:2026-11-24T11:00:00.000Z",
      "schedule:t.hourly:2026-11-24T12:00:00.000Z",
    ]);
    await Promise.all([a.stop(100), b.stop(100)]);
  });

  it(atOnce(dialect, "two processes looking at a due schedule at once queue one run"), async () => {
    const db = app().db;
    await queueDueSchedules(db, [schedule], { now: at(1), timeZone: "UTC" });
    const due = new Date("2026-11-24T11:00:05.000Z");
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        queueDueSchedules(db, [schedule], { now: due, timeZone: "UTC" }),
      ),
    );
    expect(results.flat()).toEqual(["t.hourly"]);
    expect(await jobs()).toHaveLength(1);
  });

  it("Run now queues one run (audited); a second click while it waits changes nothing", async () => {
    const db = app().db;
    const actorId = await adminId(app());
    const audits = () => readRows(db, "audit_log", ["action"], { action: "automation.run_now" });
    const before = (await audits()).length;
    const run = () =>
      runScheduleNow(db, { schedules: [schedule], name: "t.hourly", actorId, now: T0 });
    expect(await run()).toEqual({ ok: true, queued: true });
    expect(await run()).toEqual({ ok: true, queued: false });
    expect(await jobs()).toHaveLength(1);
    expect((await audits()).length).toBe(before + 1);
    expect(
      await runScheduleNow(db, { schedules: [schedule], name: "nope", actorId, now: T0 }),
    ).toEqual(refusal("notFound", "admin.automation.errors.scheduleNotFound"));
  });

  it("Retry queues a dead job again and Discard removes one, each audited once", async () => {
    const db = app().db;
    const actorId = await adminId(app());
    await inTransaction(db, async (trx) => {
      await enqueueJob(trx, { type: "t.dead-1", maxAttempts: 1, payload: { a: 1 }, now: T0 });
      await enqueueJob(trx, { type: "t.dead-2", maxAttempts: 1, now: T0 });
    });
    for (const job of await claimJobs(db, { owner: "a", limit: 2, leaseMs: 1000, now: T0 }))
      await failJob(db, { job, owner: "a", error: "gone wrong", now: at(1), backoffMs: 10 });
    const [one, two] = await jobs();
    const page = await loadAutomationPage(db, { schedules: [], page: { page: 1 } });
    expect(
      page.problemJobs.map((job) => [job.type, job.state, job.lastError, job.attempts]),
    ).toEqual([
      ["t.dead-2", "dead", "gone wrong", 1],
      ["t.dead-1", "dead", "gone wrong", 1],
    ]);

    expect(await retryJob(db, { id: Number(one!.id), actorId, now: at(5) })).toEqual({ ok: true });
    expect(await retryJob(db, { id: Number(one!.id), actorId, now: at(6) })).toEqual(
      refusal("conflict", "admin.automation.errors.notRetriable"),
    );
    expect((await jobs())[0]).toMatchObject({
      state: "queued",
      attempts: 0,
      run_at: at(5).toISOString(),
    });

    expect(await discardJob(db, { id: Number(two!.id), actorId })).toEqual({ ok: true });
    expect(await discardJob(db, { id: Number(two!.id), actorId })).toEqual(
      refusal("notFound", "admin.automation.errors.jobNotFound"),
    );
    expect((await jobs()).map((job) => job.type)).toEqual(["t.dead-1"]);
    const audited = await db
      .selectFrom("audit_log")
      .select(["action", "target_type", "target_id"])
      .where("action", "in", ["automation.job_retry", "automation.job_discard"])
      .where("target_id", "in", [String(one!.id), String(two!.id)])
      .orderBy("id")
      .execute();
    expect(audited).toEqual([
      { action: "automation.job_retry", target_type: "job", target_id: String(one!.id) },
      { action: "automation.job_discard", target_type: "job", target_id: String(two!.id) },
    ]);
  });
});
