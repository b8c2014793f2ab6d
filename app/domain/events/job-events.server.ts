import type { JobRow } from "~/domain/jobs/jobs.server";
import type { ReactionTable, StaffNotice } from "./reaction.server";

/** Where staff follow the worker. */
const AUTOMATION_PAGE = "/admin/automation";

/** A job as the audit keeps it when an admin retries or discards it. */
export interface JobRecord {
  type: string;
  state: string;
  attempts: number;
  lastError: string | null;
  payload: string;
}

/** A job that failed, as the admins' notice names it. */
type FailedJob = Pick<JobRow, "id" | "type" | "attempts" | "schedule">;

export type JobEvent =
  /** An admin's "Run now" queued a run of `schedule` (`jobId`). */
  | { type: "schedule.runRequested"; actorId: string; schedule: string; jobId: number }
  /** An admin queued a failed or dead job again, or removed it (`job` as it was). */
  | { type: "job.retried"; actorId: string; jobId: number; job: JobRecord }
  | { type: "job.discarded"; actorId: string; jobId: number; job: JobRecord }
  /** A job will not run again (its attempts spent, or a permanent failure). */
  | { type: "job.died"; job: FailedJob; error: string }
  /** A scheduled run failed (it may be tried again). */
  | { type: "schedule.runFailed"; job: FailedJob; error: string }
  /**
   * No process queued `schedule`'s run due at `due` for twice its interval: one episode, whose key
   * (`key`) tells it apart from the next.
   */
  | { type: "schedule.missed"; schedule: string; due: string; key: string }
  /** Discord refused the staff's webhook (`status`: 401 or 404), which was turned off. */
  | { type: "discordWebhook.disabled"; status: number };

/** Each admin's notice of a failed job: once per job and attempt, the error's first line cut short. */
function failureNotice(
  kind: "dead" | "runFailed",
  { job, error }: { job: FailedJob; error: string },
): StaffNotice {
  return {
    kind: kind === "dead" ? "automation_job_dead" : "automation_run_failed",
    params: {
      type: job.type,
      id: Number(job.id),
      schedule: job.schedule ?? "",
      error: error.split("\n")[0]!.slice(0, 300),
    },
    link: AUTOMATION_PAGE,
    dedupeKey: `automation:${kind}:${job.id}:${job.attempts}`,
  };
}

/** What follows the admin's actions on the worker and the worker's troubles. */
export const jobReactions: ReactionTable<JobEvent> = {
  "schedule.runRequested": {
    audit: ({ actorId, schedule, jobId }) => ({
      actorId,
      action: "automation.run_now",
      targetType: "job_schedule",
      targetId: schedule,
      after: { jobId },
    }),
  },
  "job.retried": {
    audit: ({ actorId, jobId, job }) => ({
      actorId,
      action: "automation.job_retry",
      targetType: "job",
      targetId: jobId,
      before: job,
    }),
  },
  "job.discarded": {
    audit: ({ actorId, jobId, job }) => ({
      actorId,
      action: "automation.job_discard",
      targetType: "job",
      targetId: jobId,
      before: job,
    }),
  },
  "job.died": { staffNotice: (event) => failureNotice("dead", event) },
  "schedule.runFailed": { staffNotice: (event) => failureNotice("runFailed", event) },
  "schedule.missed": {
    staffNotice: ({ schedule, due, key }) => ({
      kind: "automation_schedule_stale",
      params: { schedule, due },
      link: AUTOMATION_PAGE,
      dedupeKey: `automation:${key}`,
    }),
  },
  "discordWebhook.disabled": {
    audit: ({ status }) => ({
      actorId: null,
      action: "automation.webhook_disabled",
      targetType: "settings",
      targetId: "alerts",
      reason: `Discord answered ${status}`,
    }),
  },
};
