import { beforeEach, expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { adminId } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { discardJob, loadAutomationPage, retryJob, runScheduleNow } from "./automation.server";
import { claimJobs, enqueueJob, failJob } from "./jobs.server";
import type { ScheduleDefinition } from "./schedule-slots";

const T0 = new Date("2026-11-24T10:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

describeEachDatabase("what staff do on the automation page", (app) => {
  beforeEach(async () => {
    const db = app().db;
    await db.deleteFrom("job_runs").execute();
    await db.deleteFrom("jobs").execute();
    await db.deleteFrom("panel_drift").execute();
  });

  const jobs = () => app().db.selectFrom("jobs").selectAll().orderBy("id").execute();

  /** Queues a job and fails it once: `failed` (waiting for its next attempt) or `dead`. */
  async function troubled(type: string, end: "failed" | "dead", uniqueKey?: string) {
    const db = app().db;
    const id = await inTransaction(db, (trx) =>
      enqueueJob(trx, { type, maxAttempts: end === "dead" ? 1 : 3, uniqueKey, now: T0 }),
    );
    const [job] = await claimJobs(db, { owner: "t", limit: 1, leaseMs: 1000, now: T0 });
    expect(Number(job!.id)).toBe(id);
    expect(
      await failJob(db, {
        job: job!,
        owner: "t",
        error: `${type} broke`,
        now: at(1),
        backoffMs: 10,
      }),
    ).toBe(end);
    return id!;
  }

  it("Retry queues a failed job as well as a dead one, and refuses a job gone or one whose key waits again", async () => {
    const db = app().db;
    const actorId = await adminId(app());
    const failed = await troubled("t.failed", "failed");
    expect(await retryJob(db, { id: failed, actorId, now: at(5) })).toEqual({ ok: true });
    expect((await jobs())[0]).toMatchObject({
      state: "queued",
      attempts: 0,
      run_at: at(5).toISOString(),
    });
    expect(await retryJob(db, { id: failed + 1000, actorId, now: at(6) })).toEqual(
      refusal("notFound", "admin.automation.errors.jobNotFound"),
    );

    // A dead post whose key was queued again since: running it too would post twice.
    const dead = await troubled("t.keyed", "dead", "post:ticket:7");
    const again = await inTransaction(db, (trx) =>
      enqueueJob(trx, { type: "t.keyed", uniqueKey: "post:ticket:7", now: at(2) }),
    );
    expect(again).not.toBeNull();
    expect(await retryJob(db, { id: dead, actorId, now: at(7) })).toEqual(
      refusal("conflict", "admin.automation.errors.alreadyQueued"),
    );
    expect((await jobs()).map((job) => [Number(job.id), job.state])).toEqual([
      [failed, "queued"],
      [dead, "dead"],
      [again, "queued"],
    ]);
  });

  it("Discard removes a failed job too, audited with what it was, and refuses one still waiting", async () => {
    const db = app().db;
    const actorId = await adminId(app());
    const failed = await troubled("t.failed", "failed");
    const waiting = await inTransaction(db, (trx) =>
      enqueueJob(trx, { type: "t.waiting", now: T0 }),
    );
    expect(await discardJob(db, { id: waiting!, actorId })).toEqual(
      refusal("conflict", "admin.automation.errors.notDiscardable"),
    );
    expect(await discardJob(db, { id: failed, actorId })).toEqual({ ok: true });
    expect((await jobs()).map((job) => job.type)).toEqual(["t.waiting"]);
    const [audit] = await readRows(db, "audit_log", ["before"], {
      action: "automation.job_discard",
      target_id: String(failed),
    });
    expect(JSON.parse(audit!.before!)).toEqual({
      type: "t.failed",
      state: "failed",
      attempts: 1,
      lastError: "t.failed broke",
      payload: "{}",
    });
  });

  it("Run now queues the run at the admin's moment, audited on the schedule with the job it queued", async () => {
    const db = app().db;
    const actorId = await adminId(app());
    const schedules: ScheduleDefinition[] = [
      { name: "t.audited", cron: "0 * * * *", jobType: "t.count" },
      { name: "t.other", cron: "0 3 * * *", jobType: "t.count" },
    ];
    for (const name of ["t.audited", "t.other"])
      expect(await runScheduleNow(db, { schedules, name, actorId, now: T0 })).toEqual({
        ok: true,
        queued: true,
      });
    // One waiting run per schedule, not one for them all.
    const [job, other] = await jobs();
    expect(job).toMatchObject({ type: "t.count", schedule: "t.audited", run_at: T0.toISOString() });
    expect(other).toMatchObject({ schedule: "t.other" });
    const audits = await readRows(db, "audit_log", ["target_type", "after"], {
      action: "automation.run_now",
      target_id: "t.audited",
    });
    expect(audits.map((row) => [row.target_type, JSON.parse(row.after!)])).toEqual([
      ["job_schedule", { jobId: Number(job!.id) }],
    ]);
  });

  it("shows failed and dead jobs, each run's job (none once it is gone), and what the panel's check found", async () => {
    const db = app().db;
    const dead = await troubled("t.dead", "dead");
    const failed = await troubled("t.failed", "failed");
    await inTransaction(db, (trx) => enqueueJob(trx, { type: "t.waiting", now: T0 }));
    await db
      .insertInto("job_runs")
      .values(
        [dead, null].map((jobId) => ({
          job_id: jobId,
          schedule: "t.nightly",
          job_type: "t.dead",
          attempt: 1,
          status: "failed",
          counts: "{}",
          started_at: T0.toISOString(),
        })),
      )
      .execute();
    await db
      .insertInto("panel_drift")
      .values([
        {
          kind: "extra",
          hosting_service_id: null,
          panel_server_id: 42,
          found_at: T0.toISOString(),
        },
        {
          kind: "missing",
          hosting_service_id: 7,
          panel_server_id: null,
          found_at: T0.toISOString(),
        },
      ])
      .execute();
    const page = await loadAutomationPage(db, { schedules: [], page: { page: 1 } });
    expect(page.schedules).toEqual([]);
    expect(page.problemJobs.map((job) => [job.id, job.state]).sort()).toEqual(
      [
        [dead, "dead"],
        [failed, "failed"],
      ].sort(),
    );
    expect(page.runs.map((run) => run.jobId)).toEqual([null, dead]);
    expect(page.panelDrift.map(({ id: _id, ...drift }) => drift)).toEqual([
      { kind: "extra", serviceId: null, panelServerId: 42, foundAt: T0.toISOString() },
      { kind: "missing", serviceId: 7, panelServerId: null, foundAt: T0.toISOString() },
    ]);
  });
});
