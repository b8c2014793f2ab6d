import { beforeEach, describe, expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { alertStaff, alertStaleSchedules } from "../../../server/worker";
import { withFakeDiscordWebhook } from "../../../tests/support/fake-discord";
import { adminId } from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import {
  discordAlertHandlerWith,
  lastWebhookDisabled,
  notifyAdmins,
  queueAlert,
} from "./alerts.server";
import { DISCORD_ALERT_JOB, enqueueDiscordPost } from "./discord-posts.server";
import { claimJobs, enqueueJob, failJob, type JobRow } from "./jobs.server";
import { JOB_HANDLERS } from "./registry.server";
import { queueDueSchedules } from "./schedules.server";

const T0 = new Date("2026-11-24T10:00:00.000Z");

describeEachDatabase("alerts to a Discord webhook", (app) => {
  const { discord, setWebhook } = withFakeDiscordWebhook(app);
  let clock = T0;
  beforeEach(() => {
    clock = T0;
  });

  // The registry's post job, its posts sent to the stand-in for Discord.
  const handlers = () => ({
    ...JOB_HANDLERS,
    [DISCORD_ALERT_JOB]: discordAlertHandlerWith(undefined, { send: discord().send }),
  });
  const worker = () =>
    steppedWorker({
      db: app().db,
      handlers: handlers(),
      config: { leaseMs: 5000, pollMs: 10, backoffMs: 1000, concurrency: 2 },
      now: () => clock,
    });
  async function runDue(w: ReturnType<typeof worker>) {
    await w.tick();
    await w.idle();
  }
  const alertJobs = () =>
    app().db.selectFrom("jobs").selectAll().where("type", "=", DISCORD_ALERT_JOB).execute();

  it("posts an alert mentioning nobody, and queues none without a webhook", async () => {
    expect(await queueAlert(app().db, { text: "@everyone job died", now: T0 })).toBe(true);
    const w = worker();
    await runDue(w);
    expect(discord().posts).toEqual([
      { content: "@everyone job died", allowed_mentions: { parse: [] } },
    ]);
    expect((await alertJobs())[0]).toMatchObject({ state: "succeeded" });

    await setWebhook("");
    expect(await queueAlert(app().db, { text: "nobody hears this", now: T0 })).toBe(false);
    expect(await alertJobs()).toHaveLength(1);
    await w.stop(100);
  });

  it("waits as long as a 429 says, then sends", async () => {
    discord().answer({
      status: 429,
      body: { message: "rate limited", retry_after: 2.5, global: false },
    });
    await queueAlert(app().db, { text: "slow down", now: T0 });
    const w = worker();
    await runDue(w);
    expect((await alertJobs())[0]).toMatchObject({
      state: "failed",
      run_at: new Date(T0.getTime() + 2500).toISOString(),
    });
    clock = new Date(T0.getTime() + 2499);
    await runDue(w);
    expect(discord().posts).toHaveLength(1);
    clock = new Date(T0.getTime() + 2500);
    await runDue(w);
    expect(discord().posts).toHaveLength(2);
    // The wait Discord asked for spent no attempt (jobs.ts, FREE_WAITS_MS).
    expect((await alertJobs())[0]).toMatchObject({ state: "succeeded", attempts: 1 });
    await w.stop(100);
  });

  it("turns the webhook off on a 404 (audited, said on the page) instead of failing for ever", async () => {
    discord().answer({ status: 404, body: { message: "Unknown Webhook", code: 10015 } });
    await queueAlert(app().db, { text: "anyone there?", now: T0 });
    const w = worker();
    await runDue(w);
    expect((await alertJobs())[0]).toMatchObject({ state: "succeeded" });
    const stored = await readRow(app().db, "settings", ["value"], { key: "alerts" });
    expect(JSON.parse(stored.value).discordWebhook).toBe("");
    expect(await lastWebhookDisabled(app().db)).toMatchObject({ reason: "Discord answered 404" });
    await w.stop(100);
  });

  it("alerts staff when a job dies, in the site's language, but never about an alert", async () => {
    app().settings.invalidate();
    await inTransaction(app().db, (trx) =>
      enqueueJob(trx, { type: "provisioning.create", maxAttempts: 1, now: T0 }),
    );
    const [job] = await claimJobs(app().db, { owner: "t", limit: 1, leaseMs: 1000, now: T0 });
    await failJob(app().db, {
      job: job!,
      owner: "t",
      error: "Panel down\nstack",
      now: T0,
      backoffMs: 10,
    });
    await alertStaff(app(), {
      kind: "dead",
      job: { ...job!, attempts: 1 },
      error: "Panel down\nstack",
    });
    const [alert] = await alertJobs();
    expect(JSON.parse(alert!.payload).text).toBe(
      `Job provisioning.create #${job!.id} is dead after 1 attempts: Panel down. ${app().env.PUBLIC_URL.replace(/\/$/, "")}/admin/automation`,
    );
    await alertStaff(app(), { kind: "dead", job: alert!, error: "Discord down" });
    expect(await alertJobs()).toHaveLength(1);

    // Each admin's own list has it once, linked to the page; the same failure again adds nothing.
    const notes = () =>
      app()
        .db.selectFrom("notifications")
        .select(["user_id", "kind", "params", "link"])
        .where("kind", "like", "automation_%")
        .execute();
    const admin = await adminId(app());
    expect(await notes()).toEqual([
      {
        user_id: admin,
        kind: "automation_job_dead",
        params: JSON.stringify({
          type: "provisioning.create",
          id: Number(job!.id),
          schedule: "",
          error: "Panel down",
        }),
        link: "/admin/automation",
      },
    ]);
    await alertStaff(app(), { kind: "dead", job: { ...job!, attempts: 1 }, error: "Panel down" });
    expect(await notes()).toHaveLength(1);
  });

  it("cuts a post to Discord's 2,000 characters, whether its text was given or written when sent", async () => {
    expect(await queueAlert(app().db, { text: "a".repeat(2500), now: T0 })).toBe(true);
    expect(JSON.parse((await alertJobs())[0]!.payload).text).toHaveLength(2000);
    await inTransaction(app().db, (trx) =>
      enqueueDiscordPost(trx, {
        event: { kind: "ticketOpened", ticketId: 7, department: "billing" },
        now: T0,
      }),
    );
    const w = steppedWorker({
      db: app().db,
      handlers: {
        [DISCORD_ALERT_JOB]: discordAlertHandlerWith(async () => "b".repeat(2500), {
          send: discord().send,
        }),
      },
      config: { leaseMs: 5000, pollMs: 10, backoffMs: 1000, concurrency: 2 },
      now: () => clock,
    });
    await runDue(w);
    const contents = (discord().posts as { content: string }[]).map((post) => post.content);
    expect(contents.sort()).toEqual(["a".repeat(2000), "b".repeat(2000)]);
    await w.stop(100);
  });

  it("retries a post whose text this process cannot write, saying why", async () => {
    await inTransaction(app().db, (trx) =>
      enqueueDiscordPost(trx, {
        event: { kind: "ticketOpened", ticketId: 7, department: "billing" },
        now: T0,
      }),
    );
    // JOB_HANDLERS' post job has no writer: server/worker.ts gives the real one.
    const w = worker();
    await runDue(w);
    const [post] = await alertJobs();
    expect(post).toMatchObject({ state: "failed", attempts: 1 });
    expect(post!.last_error).toMatch(/^Error: This process cannot write a staff post's text\n/);
    expect(discord().posts).toEqual([]);
    await w.stop(100);
  });

  it("sends nothing when the writer has nothing to say, and the post is done", async () => {
    // A busy window's summary whose tickets were all deleted: the server's writer gives null.
    await inTransaction(app().db, (trx) =>
      enqueueDiscordPost(trx, {
        event: {
          kind: "ticketsOpened",
          from: T0.toISOString(),
          until: T0.toISOString(),
          skipFirst: false,
        },
        now: T0,
      }),
    );
    const w = steppedWorker({
      db: app().db,
      handlers: {
        [DISCORD_ALERT_JOB]: discordAlertHandlerWith(async () => null, { send: discord().send }),
      },
      config: { leaseMs: 5000, pollMs: 10, backoffMs: 1000, concurrency: 2 },
      now: () => clock,
    });
    await runDue(w);
    expect(await alertJobs()).toMatchObject([{ state: "succeeded", attempts: 1 }]);
    expect(discord().posts).toEqual([]);
    await w.stop(100);
  });

  it("reads Discord's wait from its header when the body has none, and waits 5 s when it says nothing usable", async () => {
    discord().answer(
      { status: 429, body: { message: "rate limited" }, headers: { "retry-after": "3" } },
      { status: 429 },
      { status: 429, body: { message: "rate limited", retry_after: 0 } },
    );
    await queueAlert(app().db, { text: "slow down", now: T0 });
    const w = worker();
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      await runDue(w);
      const [post] = await alertJobs();
      expect(post).toMatchObject({ state: "failed" });
      if (i === 0)
        expect(post!.last_error).toMatch(/^Error: Discord asked to wait 3000 ms \(429\)\n/);
      waits.push(Date.parse(post!.run_at) - clock.getTime());
      clock = new Date(post!.run_at);
    }
    expect(waits).toEqual([3000, 5000, 5000]);
    await runDue(w);
    expect((await alertJobs())[0]).toMatchObject({ state: "succeeded" });
    expect(discord().posts).toHaveLength(4);
    await w.stop(100);
  });

  it("turns the webhook off on a 401 too, audited on the alerts settings, and retries a 500", async () => {
    discord().answer(
      { status: 500, body: { message: "oops" } },
      { status: 401, body: { message: "Invalid Webhook Token" } },
    );
    await queueAlert(app().db, { text: "first try fails", now: T0 });
    const w = worker();
    await runDue(w);
    const [post] = await alertJobs();
    expect(post).toMatchObject({ state: "failed", attempts: 1 });
    expect(post!.last_error).toMatch(/^Error: Discord answered 500\n/);
    const alerts = async () =>
      JSON.parse((await readRow(app().db, "settings", ["value"], { key: "alerts" })).value);
    expect((await alerts()).discordWebhook).toBe(discord().url);

    clock = new Date(post!.run_at);
    await runDue(w);
    expect((await alertJobs())[0]).toMatchObject({ state: "succeeded", attempts: 2 });
    expect((await alerts()).discordWebhook).toBe("");
    const audits = await readRows(
      app().db,
      "audit_log",
      ["actor_id", "target_type", "target_id", "reason"],
      { action: "automation.webhook_disabled" },
      "id desc",
    );
    expect(audits[0]).toEqual({
      actor_id: null,
      target_type: "settings",
      target_id: "alerts",
      reason: "Discord answered 401",
    });
    await w.stop(100);
  });

  it("leaves a webhook an admin set while the old one was refused", async () => {
    const newer = "https://discord.com/api/webhooks/2/newer";
    discord().answer({
      status: 404,
      body: { message: "Unknown Webhook", code: 10015 },
      first: () => setWebhook(newer),
    });
    await queueAlert(app().db, { text: "anyone there?", now: T0 });
    const before = await lastWebhookDisabled(app().db);
    const w = worker();
    await runDue(w);
    const stored = await readRow(app().db, "settings", ["value"], { key: "alerts" });
    expect(JSON.parse(stored.value).discordWebhook).toBe(newer);
    expect(await lastWebhookDisabled(app().db)).toEqual(before);
    await w.stop(100);
  });

  it("never follows a redirect, nor says where it led", async () => {
    discord().answer({ status: 307, headers: { location: "/api/webhooks/9/elsewhere" } });
    await queueAlert(app().db, { text: "where to?", now: T0 });
    const w = worker();
    await runDue(w);
    // One request: a followed 307 would have posted the same body again, to the other address.
    expect(discord().requests).toEqual([{ method: "POST", path: "/api/webhooks/1/token" }]);
    const [post] = await alertJobs();
    expect(post).toMatchObject({ state: "failed", attempts: 1 });
    expect(post!.last_error).toMatch(/^Error: Discord answered 307\n/);
    expect(post!.last_error).not.toContain("elsewhere");
    await w.stop(100);
  });

  it("posts to no address but Discord's webhooks, whatever the settings row holds", async () => {
    // A row written around the form (by hand, or by an older version): read as no webhook.
    for (const url of [
      discord().localUrl,
      "https://discord.com.example.net/api/webhooks/1/token",
      "https://discord.com/api/webhooks/1/token?wait=true",
    ]) {
      await app()
        .db.updateTable("settings")
        .set({ value: JSON.stringify({ discordWebhook: url }) })
        .where("key", "=", "alerts")
        .execute();
      expect(await queueAlert(app().db, { text: "to nowhere", now: T0 }), url).toBe(false);
    }
    // A post already queued is dropped rather than sent there.
    await inTransaction(app().db, (trx) => enqueueDiscordPost(trx, { text: "queued", now: T0 }));
    const w = worker();
    await runDue(w);
    expect((await alertJobs())[0]).toMatchObject({ state: "succeeded" });
    expect(discord().requests).toEqual([]);
    await w.stop(100);
  });

  it("drops a post queued before the webhook was turned off, posting nothing", async () => {
    await queueAlert(app().db, { text: "too late", now: T0 });
    await setWebhook("");
    app().settings.invalidate();
    const w = worker();
    await runDue(w);
    expect((await alertJobs())[0]).toMatchObject({ state: "succeeded", attempts: 1 });
    expect(discord().posts).toEqual([]);
    await w.stop(100);
  });

  it("tells each admin of a failed run and of each dead job once, with the error's first line cut to 300 characters", async () => {
    const db = app().db;
    await db.deleteFrom("notifications").where("kind", "like", "automation_%").execute();
    await inTransaction(db, async (trx) => {
      await enqueueJob(trx, { type: "t.export", schedule: "t.nightly", now: T0 });
      await enqueueJob(trx, { type: "t.one", now: T0 });
      await enqueueJob(trx, { type: "t.two", now: T0 });
    });
    const [run, one, two] = await claimJobs(db, { owner: "t", limit: 3, leaseMs: 1000, now: T0 });
    const tell = (kind: "dead" | "runFailed", job: JobRow, error: string) =>
      notifyAdmins(db, { kind, job, error });
    expect(await tell("runFailed", run!, `${"x".repeat(400)}\n    at stack`)).toBe(1);
    await tell("dead", one!, "one broke");
    await tell("dead", two!, "two broke");
    await tell("dead", two!, "two broke");
    const notes = await readRows(db, "notifications", ["kind", "params"], {}, "id");
    expect(
      notes
        .filter((note) => note.kind.startsWith("automation_"))
        .map((note) => [note.kind, JSON.parse(note.params)]),
    ).toEqual([
      [
        "automation_run_failed",
        { type: "t.export", id: Number(run!.id), schedule: "t.nightly", error: "x".repeat(300) },
      ],
      [
        "automation_job_dead",
        { type: "t.one", id: Number(one!.id), schedule: "", error: "one broke" },
      ],
      [
        "automation_job_dead",
        { type: "t.two", id: Number(two!.id), schedule: "", error: "two broke" },
      ],
    ]);
  });

  describe("a schedule no process ran for twice its interval", () => {
    const hourly = [{ name: "test.hourly", cron: "0 * * * *", jobType: "test.noop" }];
    const hour = 60 * 60_000;
    const at = (ms: number) => new Date(T0.getTime() + ms);
    const check = (now: Date) => alertStaleSchedules(app(), { now, schedules: hourly });
    const staleNotes = () =>
      readRows(app().db, "notifications", ["user_id", "params", "link"], {
        kind: "automation_schedule_stale",
      });
    const stalePosts = async () =>
      (await alertJobs()).filter((job) => job.unique_key?.startsWith("stale:test.hourly:"));

    beforeEach(async () => {
      await app().db.deleteFrom("job_schedules").where("name", "=", "test.hourly").execute();
      await app().db.deleteFrom("notifications").execute();
      app().settings.invalidate();
    });

    it("alerts once per stale episode, never on a fresh install before its first slot", async () => {
      // Fresh install at 10:00: it waits for 11:00.
      await queueDueSchedules(app().db, hourly, { now: T0, timeZone: "UTC" });
      expect(await check(T0)).toBe(0);
      expect(await check(at(2 * hour))).toBe(0);
      expect(await staleNotes()).toEqual([]);

      // Nobody ran the 11:00 slot; after 12:00 it has not run for twice its interval. Two processes
      // checking at once raise one alert.
      const stale = at(2 * hour + 1000);
      expect((await Promise.all([check(stale), check(stale), check(stale)])).sort()).toEqual([
        0, 0, 1,
      ]);
      expect(await check(at(5 * hour))).toBe(0);
      expect(await staleNotes()).toEqual([
        {
          user_id: await adminId(app()),
          params: JSON.stringify({ schedule: "test.hourly", due: at(hour).toISOString() }),
          link: "/admin/automation",
        },
      ]);
      const posts = await stalePosts();
      expect(posts).toHaveLength(1);
      expect(JSON.parse(posts[0]!.payload).text).toBe(
        `The scheduled job test.hourly was due at ${at(hour).toISOString()} and has not run: no worker seems to be running. ${app().env.PUBLIC_URL.replace(/\/$/, "")}/admin/automation`,
      );
      clock = at(5 * hour);
      const w = worker();
      await runDue(w);
      await w.stop(100);
      expect(discord().posts).toEqual([
        { content: JSON.parse(posts[0]!.payload).text, allowed_mentions: { parse: [] } },
      ]);
      expect(await check(at(6 * hour))).toBe(0);

      // A worker comes back at 15:20 and runs it: fresh again, until it goes stale again.
      clock = at(5 * hour + 20 * 60_000);
      expect(await queueDueSchedules(app().db, hourly, { now: clock, timeZone: "UTC" })).toEqual([
        "test.hourly",
      ]);
      expect(await check(clock)).toBe(0);
      expect(await check(at(7 * hour))).toBe(0);
      expect(await check(at(7 * hour + 1000))).toBe(1);
      expect(await check(at(8 * hour))).toBe(0);
      expect(await staleNotes()).toHaveLength(2);
      expect(await stalePosts()).toHaveLength(2);
    });

    it("notifies staff but posts nothing without a webhook", async () => {
      await setWebhook("");
      app().settings.invalidate();
      await queueDueSchedules(app().db, hourly, { now: T0, timeZone: "UTC" });
      expect(await check(at(3 * hour))).toBe(1);
      // Seen again by a later look: the notifications' keys say it was raised.
      expect(await check(at(3 * hour + 1000))).toBe(0);
      expect(await staleNotes()).toHaveLength(1);
      expect(await stalePosts()).toEqual([]);
    });

    it("with no active admin, posts once, the post's key saying it was raised", async () => {
      const admin = await adminId(app());
      await app()
        .db.updateTable("users")
        .set({ status: "suspended" })
        .where("id", "=", admin)
        .execute();
      try {
        await queueDueSchedules(app().db, hourly, { now: T0, timeZone: "UTC" });
        expect(await check(at(3 * hour))).toBe(1);
        expect(await check(at(3 * hour + 1000))).toBe(0);
        expect(await staleNotes()).toEqual([]);
        expect(await stalePosts()).toHaveLength(1);
      } finally {
        await app()
          .db.updateTable("users")
          .set({ status: "active" })
          .where("id", "=", admin)
          .execute();
      }
    });

    it("looks only at schedules already seen", async () => {
      await queueDueSchedules(app().db, hourly, { now: T0, timeZone: "UTC" });
      const unseen = { name: "test.unseen", cron: "0 * * * *", jobType: "test.noop" };
      expect(
        await alertStaleSchedules(app(), { now: at(3 * hour), schedules: [unseen, ...hourly] }),
      ).toBe(1);
      expect(await staleNotes()).toHaveLength(1);
    });

    it("is checked on each heartbeat of a worker", async () => {
      await queueDueSchedules(app().db, hourly, { now: T0, timeZone: "UTC" });
      const checked: Date[] = [];
      const w = steppedWorker({
        db: app().db,
        handlers: JOB_HANDLERS,
        config: { leaseMs: 5000, pollMs: 10, backoffMs: 1000, concurrency: 2, heartbeatMs: 1000 },
        now: () => clock,
        onBeat: async (beat) => {
          checked.push(beat);
          await check(beat);
        },
      });
      clock = at(3 * hour);
      await w.tick();
      await w.tick();
      expect(checked).toEqual([clock]);
      expect(await staleNotes()).toHaveLength(1);
      await w.stop(100);
    });
  });
});
