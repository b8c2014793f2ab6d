import type { JobHandler } from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import { runLifecycle } from "./lifecycle.server";

// The service lifecycle on the worker: one scheduled job runs `runLifecycle` at the job's
// clock. Every hour, so a service is suspended or terminated within the hour it falls due, not the next
// morning; every step is once per service and date (its unique keys), so the other 23 runs of a day find
// nothing to do but what fell due since. While the lifecycle is switched off the run does nothing and
// its counts say so (all zero).

export const LIFECYCLE_JOB = "lifecycle.run";

export const lifecycleHandlers: Record<string, JobHandler> = {
  [LIFECYCLE_JOB]: async ({ db, now }) => ({ ...(await runLifecycle(db, { now })).counts }),
};

export const lifecycleSchedules: ScheduleDefinition[] = [
  { name: LIFECYCLE_JOB, cron: "5 * * * *", jobType: LIFECYCLE_JOB },
];
