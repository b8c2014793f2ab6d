import { expect, it } from "vitest";
import { JOB_HANDLERS, SCHEDULES } from "~/domain/jobs/registry.server";
import { isCronExpression } from "~/domain/jobs/schedule-slots";
import { setAutoRenew } from "~/domain/hosting-services/customer-services.server";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { customerWithRunningService } from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { mailHandler } from "../../../server/mail";
import { LIFECYCLE_JOB } from "./lifecycle-jobs.server";

const HOUR = 3_600_000;
const MAIL_FROM = "Hostfront <no-reply@hostfront.test>";
const CONFIG = { leaseMs: 30_000, pollMs: 1_000, backoffMs: 1_000, concurrency: 1 };

describeEachDatabase("the service lifecycle on the worker", (app) => {
  it("is a schedule of the worker with a handler", () => {
    const schedule = SCHEDULES.find((each) => each.name === LIFECYCLE_JOB);
    expect(schedule && isCronExpression(schedule.cron)).toBe(true);
    expect(JOB_HANDLERS[schedule!.jobType]).toBeTypeOf("function");
  });

  it("suspends a service past its grace period on its scheduled run, logs what it did, and does it once", async () => {
    const db = app().db;
    await updateSettingsSection(db, "lifecycle", { ...defaultSettings().lifecycle, enabled: true });
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    // Not renewed from coins: it is suspended when its grace period is over.
    expect(await setAutoRenew(db, { userId: user, serviceId, autoRenew: false })).toMatchObject({
      ok: true,
    });
    const service = await readRow(db, "hosting_services", ["expires_at"], { id: serviceId });
    // The fixture's order and coins queued their mail (docs/mail.md), older than the lifecycle's run:
    // with one job a round they would take its rounds. This test is about the lifecycle's schedule.
    await db.deleteFrom("jobs").where("type", "=", MAIL_SEND_JOB).execute();
    // Three days after its expiry (the grace period is two), at a quarter to the hour.
    let clock = new Date(Date.parse(String(service.expires_at)) + 3 * 24 * HOUR);
    clock = new Date(Math.floor(clock.getTime() / HOUR) * HOUR + 45 * 60_000);
    const worker = steppedWorker({
      db,
      // The suspension's mail is a job too (docs/mail.md), kept without SMTP: the worker of a server.
      handlers: { ...JOB_HANDLERS, [MAIL_SEND_JOB]: mailHandler(app(), { MAIL_FROM }) },
      schedules: SCHEDULES.filter((each) => each.name === LIFECYCLE_JOB),
      config: CONFIG,
      now: () => clock,
    });
    const status = async () =>
      (await readRow(db, "hosting_services", ["status", "suspension_reason"], { id: serviceId }))
        .status;
    const runs = () =>
      readRows(db, "job_runs", ["status", "counts"], { schedule: LIFECYCLE_JOB }, "id");
    try {
      // The first look only plans the schedule's next slot (five past the next hour).
      await worker.tick();
      await worker.idle();
      expect(await status()).toBe("active");
      for (let hour = 0; hour < 2; hour++) {
        clock = new Date(clock.getTime() + HOUR);
        // Two rounds an hour: one job a round, and a run's mail is due with the next run.
        for (let round = 0; round < 2; round++) {
          await worker.tick();
          await worker.idle();
        }
      }
      expect(await status()).toBe("suspended");
      const logged = await runs();
      expect(logged).toHaveLength(2);
      expect(logged.map((run) => run.status)).toEqual(["succeeded", "succeeded"]);
      expect(JSON.parse(String(logged[0]!.counts))).toMatchObject({ suspended: 1 });
      // The next hour's run finds it done.
      expect(JSON.parse(String(logged[1]!.counts))).toMatchObject({ suspended: 0 });
      // The customer was told once by mail, written by the worker and kept (no SMTP_URL).
      const mail = await db
        .selectFrom("mail_outbox")
        .select(["kind", "state"])
        .where("user_id", "=", user)
        .where("kind", "like", "service%")
        .execute();
      expect(mail).toEqual([{ kind: "serviceSuspended", state: "kept" }]);
    } finally {
      await worker.stop(1000);
      await updateSettingsSection(db, "lifecycle", defaultSettings().lifecycle);
    }
  });
});
