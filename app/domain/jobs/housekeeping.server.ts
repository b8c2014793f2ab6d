import type { Db } from "~/db/transaction";
import { pruneLoginRecords } from "~/domain/accounts/login-throttle.server";
import { pruneRateLimitRefusals } from "~/domain/accounts/rate-limit-refusals.server";
import { pruneFormWindows } from "~/domain/request-limits/request-limits.server";
import { endExpiredViews } from "~/domain/staff/view-as.server";
import type { ScheduleDefinition } from "./schedule-slots";
import type { JobHandler } from "./jobs.server";

// Housekeeping on the worker's schedules: what requests used to prune on their way (login
// attempts, form-limit refusals and windows), and what nothing pruned before (expired sessions, read
// notifications, the worker's own history). Each handler deletes by age at the handler's clock, so
// running it twice deletes nothing the second time.

const DAY_MS = 86_400_000;
/** An expired session is kept this long (the security page may show it), then deleted. */
export const EXPIRED_SESSION_RETENTION_DAYS = 30;
/** A notification the customer has read is kept this long, then deleted; unread ones stay. */
export const READ_NOTIFICATION_RETENTION_DAYS = 90;
/** Finished jobs (succeeded) and the run log are kept this long; dead jobs stay until an admin acts. */
export const JOB_HISTORY_RETENTION_DAYS = 30;

const before = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

export async function pruneExpiredSessions(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("sessions")
    .where("expires_at", "<", before(now, EXPIRED_SESSION_RETENTION_DAYS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function pruneReadNotifications(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("notifications")
    .where("read_at", "is not", null)
    .where("read_at", "<", before(now, READ_NOTIFICATION_RETENTION_DAYS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function pruneJobHistory(db: Db, now: Date) {
  const cutoff = before(now, JOB_HISTORY_RETENTION_DAYS);
  const runs = await db.deleteFrom("job_runs").where("started_at", "<", cutoff).executeTakeFirst();
  const jobs = await db
    .deleteFrom("jobs")
    .where("state", "=", "succeeded")
    .where("finished_at", "<", cutoff)
    .executeTakeFirst();
  // A process that died without stopping left its heartbeat behind; a day on, it is only noise.
  await db.deleteFrom("job_workers").where("beat_at", "<", before(now, 1)).execute();
  return { runs: Number(runs.numDeletedRows), jobs: Number(jobs.numDeletedRows) };
}

export const HOUSEKEEPING_JOBS = {
  formWindows: "housekeeping.form-windows",
  loginRecords: "housekeeping.login-records",
  sessions: "housekeeping.sessions",
  notifications: "housekeeping.notifications",
  jobHistory: "housekeeping.job-history",
} as const;

export const housekeepingHandlers: Record<string, JobHandler> = {
  [HOUSEKEEPING_JOBS.formWindows]: async ({ db, now }) => ({
    formWindows: (await pruneFormWindows(db, now, { force: true })) ?? 0,
  }),
  [HOUSEKEEPING_JOBS.loginRecords]: async ({ db, now }) => ({
    loginRecords: (await pruneLoginRecords(db, now, { force: true })) ?? 0,
    rateLimitRefusals: await pruneRateLimitRefusals(db, now),
  }),
  // A view of a customer that its session's expiry stopped is ended (audited) before the session goes.
  [HOUSEKEEPING_JOBS.sessions]: async ({ db, now }) => ({
    viewsEnded: await endExpiredViews(db, now),
    sessions: await pruneExpiredSessions(db, now),
  }),
  [HOUSEKEEPING_JOBS.notifications]: async ({ db, now }) => ({
    notifications: await pruneReadNotifications(db, now),
  }),
  [HOUSEKEEPING_JOBS.jobHistory]: async ({ db, now }) => pruneJobHistory(db, now),
};

/** Every schedule's name is also its job type: one schedule per housekeeping task. */
export const housekeepingSchedules: ScheduleDefinition[] = [
  {
    name: HOUSEKEEPING_JOBS.formWindows,
    cron: "*/5 * * * *",
    jobType: HOUSEKEEPING_JOBS.formWindows,
  },
  {
    name: HOUSEKEEPING_JOBS.loginRecords,
    cron: "7 * * * *",
    jobType: HOUSEKEEPING_JOBS.loginRecords,
  },
  { name: HOUSEKEEPING_JOBS.sessions, cron: "15 3 * * *", jobType: HOUSEKEEPING_JOBS.sessions },
  {
    name: HOUSEKEEPING_JOBS.notifications,
    cron: "30 3 * * *",
    jobType: HOUSEKEEPING_JOBS.notifications,
  },
  { name: HOUSEKEEPING_JOBS.jobHistory, cron: "45 3 * * *", jobType: HOUSEKEEPING_JOBS.jobHistory },
];
