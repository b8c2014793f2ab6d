import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { recordLoginAttempt } from "~/domain/accounts/login-throttle.server";
import { countFormPost } from "~/domain/request-limits/request-limits.server";
import { databaseFingerprint } from "../../../tests/support/database-fingerprint";
import { adminId } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import {
  HOUSEKEEPING_JOBS,
  housekeepingHandlers,
  housekeepingSchedules,
} from "./housekeeping.server";
import type { JobRow } from "./jobs.server";
import { JOB_HANDLERS, scheduleNamed } from "./registry.server";
import { isCronExpression } from "./schedule-slots";

const NOW = new Date("2026-11-24T03:00:00.000Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

describeEachDatabase("housekeeping on the worker's schedules", (app) => {
  /** Runs a housekeeping handler as the worker would, at NOW. */
  const run = (type: string) =>
    housekeepingHandlers[type]!({
      db: app().db,
      now: NOW,
      payload: {},
      job: {} as JobRow,
      complete: () => Promise.reject(new Error("housekeeping leaves its job to the worker")),
    });

  /** Runs it twice: the second run must delete nothing and leave every table as the first left it. */
  async function twice(type: string) {
    const first = await run(type);
    const after = await databaseFingerprint(app().db);
    const second = await run(type);
    expect(await databaseFingerprint(app().db)).toEqual(after);
    for (const count of Object.values(second ?? {})) expect(count).toBe(0);
    return first;
  }

  it("has a valid cron expression and a handler for every schedule", () => {
    for (const schedule of housekeepingSchedules) {
      expect(isCronExpression(schedule.cron)).toBe(true);
      expect(housekeepingHandlers[schedule.jobType]).toBeTypeOf("function");
    }
  });

  it("runs every task on a schedule the worker knows, with the handler the worker runs", () => {
    // A handler no schedule names would never run.
    expect(housekeepingSchedules.map((schedule) => schedule.jobType).sort()).toEqual(
      Object.keys(housekeepingHandlers).sort(),
    );
    for (const schedule of housekeepingSchedules) {
      expect(scheduleNamed(schedule.name)).toBe(schedule);
      expect(JOB_HANDLERS[schedule.jobType]).toBe(housekeepingHandlers[schedule.jobType]);
    }
    expect(scheduleNamed("housekeeping.unknown")).toBeUndefined();
  });

  it("deletes sessions expired for more than 30 days, once", async () => {
    const db = app().db;
    const userId = await adminId(app());
    const session = (id: string, expiresAt: string) => ({
      id,
      user_id: userId,
      token: randomBytes(16).toString("hex"),
      expires_at: expiresAt,
      ip_address: null,
      user_agent: null,
      impersonated_by: null,
      created_at: daysAgo(60),
      updated_at: daysAgo(60),
    });
    await db
      .insertInto("sessions")
      .values([
        session("hk-old", daysAgo(31)),
        session("hk-recent", daysAgo(29)),
        session("hk-live", daysAgo(-5)),
      ])
      .execute();
    expect(await twice(HOUSEKEEPING_JOBS.sessions)).toEqual({ viewsEnded: 0, sessions: 1 });
    const left = await db
      .selectFrom("sessions")
      .select("id")
      .where("id", "like", "hk-%")
      .orderBy("id")
      .execute();
    expect(left.map((row) => row.id)).toEqual(["hk-live", "hk-recent"]);
  });

  it("deletes notifications read more than 90 days ago, once, and never an unread one", async () => {
    const db = app().db;
    const userId = await adminId(app());
    const note = (link: string, readAt: string | null) => ({
      user_id: userId,
      kind: "test",
      params: "{}",
      link,
      dedupe_key: null,
      read_at: readAt,
      created_at: daysAgo(200),
    });
    await db
      .insertInto("notifications")
      .values([
        note("/old-read", daysAgo(91)),
        note("/recent-read", daysAgo(89)),
        note("/unread", null),
      ])
      .execute();
    expect(await twice(HOUSEKEEPING_JOBS.notifications)).toEqual({ notifications: 1 });
    const left = await db.selectFrom("notifications").select("link").orderBy("link").execute();
    expect(left.map((row) => row.link)).toEqual(["/recent-read", "/unread"]);
  });

  it("prunes login attempts and form-limit refusals, which requests no longer do", async () => {
    const db = app().db;
    await recordLoginAttempt(
      db,
      { email: "hk-old@example.com", ip: "192.0.2.90", succeeded: false },
      new Date(daysAgo(31)),
    );
    // A request records its attempt and leaves the old one alone now.
    await recordLoginAttempt(
      db,
      { email: "hk-new@example.com", ip: "192.0.2.91", succeeded: true },
      NOW,
    );
    const emails = async () =>
      (
        await db
          .selectFrom("login_attempts")
          .select("email")
          .where("email", "like", "hk-%")
          .orderBy("email")
          .execute()
      ).map((row) => row.email);
    expect(await emails()).toEqual(["hk-new@example.com", "hk-old@example.com"]);
    await db
      .insertInto("rate_limit_refusals")
      .values([
        { ip_address: "192.0.2.92", path: "/login", created_at: daysAgo(8), ends_at: daysAgo(8) },
        { ip_address: "192.0.2.93", path: "/login", created_at: daysAgo(1), ends_at: daysAgo(1) },
      ])
      .execute();
    const counts = await twice(HOUSEKEEPING_JOBS.loginRecords);
    expect(counts).toEqual({ loginRecords: 1, rateLimitRefusals: 1 });
    expect(await emails()).toEqual(["hk-new@example.com"]);
    const refusals = await db.selectFrom("rate_limit_refusals").select("ip_address").execute();
    expect(refusals.map((row) => row.ip_address)).toEqual(["192.0.2.93"]);
  });

  it("deletes the form-limit windows no post counts with any more, once", async () => {
    const db = app().db;
    await countFormPost(
      db,
      { ip: "192.0.2.94", form: "/contact", limit: 10 },
      new Date(NOW.getTime() - 120_000),
    );
    await countFormPost(db, { ip: "192.0.2.94", form: "/contact", limit: 10 }, NOW);
    // The old window is still there after the second post: pruning is not the request's work.
    const windows = () =>
      readRows(db, "form_rate_windows", ["window_start"], { ip_address: "192.0.2.94" });
    expect(await windows()).toHaveLength(2);
    expect(await twice(HOUSEKEEPING_JOBS.formWindows)).toEqual({ formWindows: 1 });
    expect(await windows()).toHaveLength(1);
  });

  it("prunes again when its schedule comes back within the limit a request keeps to", async () => {
    const db = app().db;
    // A request prunes at most once a minute (login records: an hour) per database handle; the
    // worker's runs are forced, so two in a row each delete what is old by then.
    const oldWindow = (ip: string) =>
      countFormPost(db, { ip, form: "/contact", limit: 10 }, new Date(NOW.getTime() - 120_000));
    const oldAttempt = (email: string) =>
      recordLoginAttempt(db, { email, ip: "192.0.2.97", succeeded: false }, new Date(daysAgo(31)));
    for (const n of [1, 2]) {
      await oldWindow(`192.0.2.${95 + n}`);
      await oldAttempt(`hk-forced-${n}@example.com`);
      expect(await run(HOUSEKEEPING_JOBS.formWindows)).toEqual({ formWindows: 1 });
      expect(await run(HOUSEKEEPING_JOBS.loginRecords)).toMatchObject({ loginRecords: 1 });
    }
  });

  it("deletes the worker's own history after 30 days, keeping dead jobs for an admin", async () => {
    const db = app().db;
    const job = (state: string, finishedAt: string | null) => ({
      type: "t.history",
      state,
      run_at: daysAgo(40),
      created_at: daysAgo(40),
      updated_at: daysAgo(40),
      finished_at: finishedAt,
    });
    await db
      .insertInto("jobs")
      .values([
        job("succeeded", daysAgo(31)),
        job("succeeded", daysAgo(2)),
        job("dead", daysAgo(40)),
      ])
      .execute();
    await db
      .insertInto("job_runs")
      .values(
        [daysAgo(31), daysAgo(2)].map((startedAt) => ({
          schedule: "t.history",
          job_type: "t.history",
          attempt: 1,
          status: "succeeded",
          started_at: startedAt,
          finished_at: startedAt,
        })),
      )
      .execute();
    expect(await twice(HOUSEKEEPING_JOBS.jobHistory)).toEqual({ runs: 1, jobs: 1 });
    const states = await readRows(db, "jobs", ["state"], { type: "t.history" }, "state");
    expect(states.map((row) => row.state)).toEqual(["dead", "succeeded"]);
  });
});
