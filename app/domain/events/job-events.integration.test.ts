import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import type { JobRow } from "~/domain/jobs/jobs.server";
import { adminId } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { record, type DomainEvent } from "./events.server";

// Each of the worker's events writes its reactions: the audit entries of the admin's actions, each
// admin's notice of a job in trouble (once per key, what `record` says back), the webhook turned off.

describeEachDatabase("the worker's events", (app) => {
  const recorded = (event: DomainEvent, now?: Date) =>
    inTransaction(app().db, (trx) => record(trx, event, now));
  const audited = (targetId: string) =>
    readRows(
      app().db,
      "audit_log",
      ["action", "actor_id", "target_type", "before", "after", "reason"],
      { target_id: targetId },
      "id",
    );
  const staffNotices = async (kind: string) =>
    readRows(app().db, "notifications", ["params", "link", "dedupe_key", "created_at"], {
      kind,
      user_id: await adminId(app()),
    });

  it("schedule.runRequested: audits the admin's Run now with the job it queued", async () => {
    const admin = await adminId(app());
    await recorded({
      type: "schedule.runRequested",
      actorId: admin,
      schedule: "events.test-schedule",
      jobId: 4242,
    });
    expect(await audited("events.test-schedule")).toEqual([
      {
        action: "automation.run_now",
        actor_id: admin,
        target_type: "job_schedule",
        before: null,
        after: JSON.stringify({ jobId: 4242 }),
        reason: "",
      },
    ]);
  });

  it("job.retried and job.discarded: audit the job as it was", async () => {
    const admin = await adminId(app());
    const job = { type: "t.x", state: "dead", attempts: 3, lastError: "boom", payload: "{}" };
    await recorded({ type: "job.retried", actorId: admin, jobId: 990_101, job });
    await recorded({ type: "job.discarded", actorId: admin, jobId: 990_101, job });
    expect(await audited("990101")).toEqual(
      ["automation.job_retry", "automation.job_discard"].map((action) => ({
        action,
        actor_id: admin,
        target_type: "job",
        before: JSON.stringify(job),
        after: null,
        reason: "",
      })),
    );
  });

  it("job.died and schedule.runFailed: tell each admin once per job and attempt, the error's first line cut short", async () => {
    const job = { id: 990_201, type: "t.export", attempts: 2, schedule: "t.nightly" } as JobRow;
    const died = { type: "job.died", job, error: `${"x".repeat(400)}\n    at stack` } as const;
    const first = await recorded(died);
    expect(first.staffTold).toEqual({
      admins: expect.any(Number),
      written: first.staffTold!.admins,
    });
    expect(first.staffTold!.admins).toBeGreaterThan(0);
    expect((await recorded(died)).staffTold).toEqual({
      admins: first.staffTold!.admins,
      written: 0,
    });
    await recorded({ type: "schedule.runFailed", job, error: "panel down" });
    const params = (error: string) =>
      JSON.stringify({ type: "t.export", id: 990_201, schedule: "t.nightly", error });
    expect(await staffNotices("automation_job_dead")).toContainEqual({
      params: params("x".repeat(300)),
      link: "/admin/automation",
      dedupe_key: `automation:dead:990201:2:${await adminId(app())}`,
      created_at: expect.any(String),
    });
    expect(await staffNotices("automation_run_failed")).toContainEqual({
      params: params("panel down"),
      link: "/admin/automation",
      dedupe_key: `automation:runFailed:990201:2:${await adminId(app())}`,
      created_at: expect.any(String),
    });
  });

  it("schedule.missed: tells each admin once per episode, when it was due, as of the clock's now", async () => {
    const now = new Date("2026-11-20T12:00:01.000Z");
    const missed = {
      type: "schedule.missed",
      schedule: "events.hourly",
      due: "2026-11-20T11:00:00.000Z",
      key: "stale:events.hourly:2026-11-20T11:00:00.000Z",
    } as const;
    expect((await recorded(missed, now)).staffTold!.written).toBeGreaterThan(0);
    expect((await recorded(missed, now)).staffTold!.written).toBe(0);
    expect(
      (await staffNotices("automation_schedule_stale")).filter((notice) =>
        notice.dedupe_key?.startsWith("automation:stale:events.hourly:"),
      ),
    ).toEqual([
      {
        params: JSON.stringify({ schedule: "events.hourly", due: "2026-11-20T11:00:00.000Z" }),
        link: "/admin/automation",
        dedupe_key: `automation:${missed.key}:${await adminId(app())}`,
        created_at: now.toISOString(),
      },
    ]);
  });

  it("discordWebhook.disabled: audits it with Discord's answer, no actor", async () => {
    const before = (await audited("alerts")).length;
    await recorded({ type: "discordWebhook.disabled", status: 404 });
    expect((await audited("alerts")).slice(before)).toEqual([
      {
        action: "automation.webhook_disabled",
        actor_id: null,
        target_type: "settings",
        before: null,
        after: null,
        reason: "Discord answered 404",
      },
    ]);
  });
});
