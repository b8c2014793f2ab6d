import { labelKeys } from "~/lib/label-keys";
import { LIFECYCLE_ACTIONS } from "~/domain/lifecycle/lifecycle";

export type { AutomationAction, AutomationQuery } from "./jobs.schemas";

// The background worker's rules (ADR 27), pure: states, retry delays, schedule slots and the
// admin page's inputs. The database side is jobs.server.ts; the loop that runs jobs is runner.server.ts.

export const JOB_STATES = ["queued", "running", "succeeded", "failed", "dead"] as const;
export type JobState = (typeof JOB_STATES)[number];
/** The states in which a job still has work ahead: its unique key is taken while it is in one. */
export const PENDING_STATES = ["queued", "running", "failed"] as const satisfies JobState[];

/** The longest wait between two attempts, whatever the backoff base. */
export const MAX_RETRY_DELAY_MS = 6 * 60 * 60 * 1000;

/**
 * How long a job waits after its `attempt`-th failed attempt (1 for the first): the base doubled per
 * attempt, of which half is fixed and half random (`random` in [0, 1)), so jobs that failed together
 * (a database restart) do not all come back at the same moment. Capped at MAX_RETRY_DELAY_MS.
 */
export function retryDelayMs(attempt: number, baseMs: number, random: number): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);
  return Math.round(exponential / 2 + (exponential / 2) * random);
}

/**
 * How long after a job was queued a wait it was told to make (RetryLater: a 429's Retry-After, ports
 * another job is claiming) gives its attempt back: waiting is not failing, so it neither spends one of
 * the job's attempts nor lengthens its next backoff. Past this a wait counts as an attempt, so a job
 * told to wait for ever still ends (dead, and staff alerted).
 */
export const FREE_WAITS_MS = 24 * 60 * 60 * 1000;

/** Whether a wait asked at `now` gives its attempt back (FREE_WAITS_MS). */
export function waitIsFree(queuedAt: string, now: Date): boolean {
  return now.getTime() - Date.parse(queuedAt) < FREE_WAITS_MS;
}

/** What a failed attempt leads to: another attempt after a delay, or the end (dead). */
export function afterFailure(
  job: { attempts: number; maxAttempts: number },
  now: Date,
  baseMs: number,
  random: number,
): { state: "failed"; runAt: Date } | { state: "dead" } {
  if (job.attempts >= job.maxAttempts) return { state: "dead" };
  return {
    state: "failed",
    runAt: new Date(now.getTime() + retryDelayMs(job.attempts, baseMs, random)),
  };
}

// ---------------------------------------------------------------------------------------------------
// /admin/automation

export const RUNS_PAGE_SIZE = 25;
export const PROBLEM_JOBS_LIMIT = 50;

export interface ScheduleView {
  name: string;
  cron: string;
  jobType: string;
  lastRun: RunView | null;
  nextRunAt: string | null;
}

export const RUN_STATUSES = ["running", "succeeded", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** The states of a job the admin page lists as a problem. */
export const PROBLEM_STATES = ["failed", "dead"] as const satisfies JobState[];
export type ProblemState = (typeof PROBLEM_STATES)[number];

export interface RunView {
  id: number;
  schedule: string;
  jobId: number | null;
  attempt: number;
  status: RunStatus;
  counts: Record<string, number>;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface ProblemJobView {
  id: number;
  type: string;
  state: ProblemState;
  payload: string;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  runAt: string;
  updatedAt: string;
}

/** Counts a run reports, read back from JSON: anything but a whole number is left out. */
export function parseCounts(text: string): Record<string, number> {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter(
        (entry): entry is [string, number] =>
          typeof entry[1] === "number" && Number.isInteger(entry[1]),
      ),
    );
  } catch {
    return {};
  }
}

/** Whether a run's counts say it did nothing (none, or all zero): the page says so rather than list zeros. */
export function didNothing(counts: Record<string, number>): boolean {
  return Object.values(counts).every((n) => n === 0);
}

/** Why an admin's action on the automation page was refused (admin namespace). */
export type AutomationError =
  | "admin.automation.errors.jobNotFound"
  | "admin.automation.errors.scheduleNotFound"
  | "admin.automation.errors.notRetriable"
  | "admin.automation.errors.notDiscardable"
  | "admin.automation.errors.alreadyQueued";

/** Each schedule's name in words (admin namespace); a schedule without one is shown by its name. */
export const SCHEDULE_LABELS: Record<string, string> = {
  "housekeeping.form-windows": "automation.names.formWindows",
  "housekeeping.login-records": "automation.names.loginRecords",
  "housekeeping.sessions": "automation.names.sessions",
  "housekeeping.notifications": "automation.names.notifications",
  "housekeeping.job-history": "automation.names.jobHistory",
  "lifecycle.run": "automation.names.lifecycle",
  "payments.proof-retention": "automation.names.proofRetention",
  "provisioning.reconcile": "automation.names.panelReconcile",
  "provisioning.refresh": "automation.names.panelRefresh",
  "data-exports.purge": "automation.names.dataExports",
  "tickets.file-retention": "automation.names.ticketFileRetention",
  "discord.reconcile": "discord:automation.reconcile",
};

/** What a run's counts count: each has its words, a count without them is shown by its key. */
export const COUNT_NAMES = [
  "formWindows",
  "loginRecords",
  "rateLimitRefusals",
  "sessions",
  "notifications",
  "runs",
  "jobs",
  // The service lifecycle's run.
  ...LIFECYCLE_ACTIONS,
  // The proof files' retention (app/domain/payments).
  "proofFiles",
  // The tickets' files' retention (app/domain/tickets).
  "ticketFiles",
  // The game panel's jobs (app/domain/provisioning).
  "servers",
  "services",
  "drift",
  "checked",
  // The customers' data archives (app/domain/data-exports).
  "archivesExpired",
  "archivesFailed",
] as const;

// Catalogue keys (admin namespace), one family a set of values (docs/i18n.md, ADR 26). The counts' are
// looked up by any name a run reports.
export const COUNT_LABELS: Readonly<Record<string, string>> = labelKeys(
  "admin",
  "automation.counts",
  COUNT_NAMES,
);
export const RUN_STATUS_LABELS = labelKeys("admin", "automation.status", RUN_STATUSES);
export const PROBLEM_STATE_LABELS = labelKeys("admin", "automation.states", PROBLEM_STATES);
