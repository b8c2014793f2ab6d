import { beforeAll, expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { claimJobs, enqueueJob, failJob } from "~/domain/jobs/jobs.server";
import { JOB_HANDLERS, SCHEDULES } from "~/domain/jobs/registry.server";
import { startWorker } from "~/domain/jobs/runner.server";
import * as automation from "~/routes/admin/automation";
import { registeredCustomer, signedInCookie } from "../support/account-fixtures";
import { appFetch, type AppFetch } from "../support/app-harness";
import { postAction } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// /admin/automation through its route module and the rendered page: a schedule's "Run now" (audited,
// twice changes nothing), its run in the log with its counts, a dead job's error and payload, Retry and
// Discard, and wrong input answered with a message, never a 500.
describeEachDatabase("/admin/automation", (app) => {
  let cookie: string;
  let fetchApp: AppFetch;

  beforeAll(async () => {
    cookie = await signedInCookie(app(), TEST_ADMIN, { ip: "10.61.0.1" });
    fetchApp = appFetch(app());
  });

  const post = (fields: Record<string, string>) =>
    postAction(app(), automation, "/admin/automation", fields, { cookie });
  const page = async (path = "/admin/automation") => {
    const response = await fetchApp(path, { cookie });
    expect(response.status).toBe(200);
    return response.text();
  };

  it("runs a schedule now once, and shows the run with what it did", async () => {
    const name = "housekeeping.sessions";
    expect(await post({ intent: "run-now", schedule: name })).toEqual({
      ok: true,
      message: "admin.automation.done.queued",
      schedule: name,
    });
    expect(await post({ intent: "run-now", schedule: name })).toEqual({
      ok: true,
      message: "admin.automation.done.alreadyQueued",
      schedule: name,
    });
    const audits = await app()
      .db.selectFrom("audit_log")
      .select("target_id")
      .where("action", "=", "automation.run_now")
      .execute();
    expect(audits).toEqual([{ target_id: name }]);

    const worker = startWorker(
      {
        db: app().db,
        handlers: JOB_HANDLERS,
        schedules: SCHEDULES,
        config: { leaseMs: 5000, pollMs: 10, backoffMs: 10, concurrency: 2 },
        timeZone: async () => "Africa/Casablanca",
      },
      { autoStart: false },
    );
    await worker.tick();
    await worker.idle();
    await worker.stop(1000);
    const html = await page();
    expect(html).toContain("Prune expired sessions");
    // Nothing was expired: a run that counted only zeros says so rather than listing them.
    expect(html).toContain("Nothing to do");
    expect(html).not.toContain("sessions deleted: 0");
    expect(html).toContain("Succeeded");
  });

  it("shows a dead job's error and payload, retries it once and discards another", async () => {
    const db = app().db;
    await inTransaction(db, async (trx) => {
      await enqueueJob(trx, { type: "test.broken", payload: { server: "eu-1" }, maxAttempts: 1 });
      await enqueueJob(trx, { type: "test.other", maxAttempts: 1 });
    });
    const jobs = await claimJobs(db, { owner: "t", limit: 10, leaseMs: 5000, now: new Date() });
    for (const job of jobs)
      await failJob(db, {
        job,
        owner: "t",
        error: "Panel refused: 503",
        now: new Date(),
        backoffMs: 10,
      });
    // By type: the admin's sign-in queued its notice mail (a mail.send job) before these.
    const idOf = (type: string) => String(jobs.find((job) => job.type === type)!.id);
    const [broken, other] = [idOf("test.broken"), idOf("test.other")];
    const html = await page();
    expect(html).toContain("Panel refused: 503");
    expect(html).toContain("test.broken");
    expect(html).toContain("eu-1");

    expect(await post({ intent: "retry", id: broken! })).toEqual({
      ok: true,
      message: "admin.automation.done.retried",
      id: Number(broken),
    });
    expect(await post({ intent: "retry", id: broken! })).toMatchObject({
      data: { ok: false, message: "admin.automation.errors.notRetriable" },
      init: { status: 409 },
    });
    expect(await post({ intent: "discard", id: other! })).toEqual({
      ok: true,
      message: "admin.automation.done.discarded",
      id: Number(other),
    });
    const left = await db
      .selectFrom("jobs")
      .select(["type", "state"])
      .where("type", "like", "test.%")
      .execute();
    expect(left).toEqual([{ type: "test.broken", state: "queued" }]);
  });

  it("saves the site's time zone (audited), once, and refuses one that does not exist", async () => {
    expect((await app().settings.get()).general.timeZone).toBe("Africa/Casablanca");
    expect(await post({ intent: "time-zone", timeZone: "Europe/Paris" })).toEqual({
      ok: true,
      message: "admin.automation.done.timeZoneSaved",
    });
    expect((await app().settings.get()).general.timeZone).toBe("Europe/Paris");
    expect(await post({ intent: "time-zone", timeZone: "Europe/Paris" })).toEqual({
      ok: true,
      message: "admin.automation.done.timeZoneUnchanged",
    });
    expect(await post({ intent: "time-zone", timeZone: "Mars/Olympus" })).toMatchObject({
      data: { ok: false, message: "admin.automation.errors.timeZoneInvalid" },
      init: { status: 400 },
    });
    const audits = await app()
      .db.selectFrom("audit_log")
      .select(["target_id", "after"])
      .where("action", "=", "settings.update")
      .where("target_id", "=", "timeZone")
      .execute();
    expect(audits).toEqual([{ target_id: "timeZone", after: '{"timeZone":"Europe/Paris"}' }]);
    expect(await page()).toContain('value="Europe/Paris"');
    await post({ intent: "time-zone", timeZone: "Africa/Casablanca" });
  });

  it("keeps the alert webhook to admins: saved here, never in a customer's page data", async () => {
    const webhook = "https://discord.com/api/webhooks/123/secret-token-xyz";
    expect(await post({ intent: "alerts", discordWebhook: webhook })).toEqual({
      ok: true,
      message: "admin.automation.done.alertsSaved",
    });
    // Only Discord's webhook addresses: the worker posts to it.
    for (const wrong of [
      "javascript:alert(1)",
      "http://169.254.169.254/latest/meta-data",
      "https://example.com/api/webhooks/1/token",
      "https://discord.com/api/webhooks/123/secret-token-xyz#",
    ])
      expect(await post({ intent: "alerts", discordWebhook: wrong }), wrong).toMatchObject({
        data: { ok: false, message: "admin-settings.errors.discordWebhookInvalid" },
        init: { status: 400 },
      });
    expect(await page()).toContain(webhook);
    const customer = {
      name: "Webhook",
      email: `webhook-${Date.now()}@example.com`,
      password: "Tangerine-Viaduct-73",
    };
    await registeredCustomer(app(), customer);
    const customerCookie = await signedInCookie(app(), customer, { ip: "10.61.0.2" });
    const dashboard = await fetchApp("/dashboard", { cookie: customerCookie });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).not.toContain("secret-token-xyz");
    await post({ intent: "alerts", discordWebhook: "" });
  });

  it("answers wrong input with a message and its status", async () => {
    expect(await post({ intent: "explode" })).toMatchObject({
      data: { ok: false, message: "admin.automation.errors.unknownAction" },
      init: { status: 400 },
    });
    expect(await post({ intent: "retry", id: "abc" })).toMatchObject({
      data: { ok: false, message: "admin.automation.errors.jobNotFound" },
      init: { status: 400 },
    });
    expect(await post({ intent: "discard", id: "99999999" })).toMatchObject({
      data: { ok: false, message: "admin.automation.errors.jobNotFound" },
      init: { status: 404 },
    });
    expect(await post({ intent: "run-now", schedule: "nope" })).toMatchObject({
      data: { ok: false, message: "admin.automation.errors.scheduleNotFound" },
      init: { status: 404 },
    });
    expect((await page("/admin/automation?page=zz")).length).toBeGreaterThan(0);
  });
});
