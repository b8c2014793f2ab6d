import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import { inTransaction, refuse, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import {
  parseCounts,
  PROBLEM_JOBS_LIMIT,
  RUNS_PAGE_SIZE,
  type ProblemJobView,
  type RunView,
  type ScheduleView,
  type AutomationError,
} from "./jobs";
import type { ScheduleDefinition } from "./schedule-slots";
import { deleteProblemJob, requeueJob, type JobChangeResult } from "./jobs.server";
import { SCHEDULES } from "./registry.server";
import { enqueueScheduleRun } from "./schedules.server";
import type { DriftKind, PanelDriftView } from "~/domain/provisioning/panel-plan";

// What staff see of the worker and do with it on /admin/automation.

type RunRow = {
  id: number;
  job_id: number | null;
  schedule: string;
  attempt: number;
  status: string;
  counts: string;
  error: string | null;
  started_at: string;
  finished_at: string | null;
};

const RUN_COLUMNS = [
  "id",
  "job_id",
  "schedule",
  "attempt",
  "status",
  "counts",
  "error",
  "started_at",
  "finished_at",
] as const;

function runView(row: RunRow): RunView {
  return {
    id: Number(row.id),
    schedule: row.schedule,
    jobId: row.job_id === null ? null : Number(row.job_id),
    attempt: Number(row.attempt),
    status: row.status as RunView["status"],
    counts: parseCounts(row.counts),
    error: row.error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** The schedules with their last run and next slot, a page of the run log, and the jobs in trouble. */
export async function loadAutomationPage(
  db: Db,
  { schedules = SCHEDULES, page }: { schedules?: readonly ScheduleDefinition[]; page: PageRequest },
) {
  const names = schedules.map((schedule) => schedule.name);
  const [states, lastRuns, runs, problems, drift] = await Promise.all([
    names.length
      ? db
          .selectFrom("job_schedules")
          .select(["name", "next_run_at"])
          .where("name", "in", names)
          .execute()
      : Promise.resolve([]),
    // The newest run of each schedule.
    names.length
      ? db
          .selectFrom("job_runs")
          .select(RUN_COLUMNS)
          .where("id", "in", (eb) =>
            eb
              .selectFrom("job_runs")
              .select((inner) => inner.fn.max("id").as("id"))
              .where("schedule", "in", names)
              .groupBy("schedule"),
          )
          .execute()
      : Promise.resolve([]),
    fetchPage(
      db.selectFrom("job_runs").select(RUN_COLUMNS).orderBy("id", "desc"),
      pageWindow(page, RUNS_PAGE_SIZE),
    ),
    db
      .selectFrom("jobs")
      .select([
        "id",
        "type",
        "state",
        "payload",
        "attempts",
        "max_attempts",
        "last_error",
        "run_at",
        "updated_at",
      ])
      .where("state", "in", ["failed", "dead"])
      .orderBy("updated_at", "desc")
      .orderBy("id", "desc")
      .limit(PROBLEM_JOBS_LIMIT)
      .execute(),
    // What the game panel's reconciliation found last.
    db
      .selectFrom("panel_drift")
      .select(["id", "kind", "hosting_service_id", "panel_server_id", "found_at"])
      .orderBy("id")
      .limit(PROBLEM_JOBS_LIMIT)
      .execute(),
  ]);
  const next = new Map(states.map((row) => [row.name, row.next_run_at]));
  const last = new Map(lastRuns.map((row) => [row.schedule, runView(row as RunRow)]));
  return {
    schedules: schedules.map((schedule): ScheduleView => ({
      name: schedule.name,
      cron: schedule.cron,
      jobType: schedule.jobType,
      lastRun: last.get(schedule.name) ?? null,
      nextRunAt: next.get(schedule.name) ?? null,
    })),
    runs: runs.rows.map((row) => runView(row as RunRow)),
    hasMore: runs.hasMore,
    panelDrift: drift.map((row): PanelDriftView => ({
      id: Number(row.id),
      kind: row.kind as DriftKind,
      serviceId: row.hosting_service_id === null ? null : Number(row.hosting_service_id),
      panelServerId: row.panel_server_id === null ? null : Number(row.panel_server_id),
      foundAt: row.found_at,
    })),
    problemJobs: problems.map((row): ProblemJobView => ({
      id: Number(row.id),
      type: row.type,
      state: row.state as ProblemJobView["state"],
      payload: row.payload,
      attempts: Number(row.attempts),
      maxAttempts: Number(row.max_attempts),
      lastError: row.last_error,
      runAt: row.run_at,
      updatedAt: row.updated_at,
    })),
  };
}

export type RunNowResult =
  | { ok: true; queued: boolean }
  | { ok: false; kind: "notFound"; error: "admin.automation.errors.scheduleNotFound" };

/**
 * An admin's "Run now": queues one run of the schedule at once, audited. While that run waits or runs,
 * a second click queues nothing and writes nothing (`queued: false`).
 */
export async function runScheduleNow(
  db: Db,
  {
    schedules = SCHEDULES,
    name,
    actorId,
    now = new Date(),
  }: { schedules?: readonly ScheduleDefinition[]; name: string; actorId: string; now?: Date },
): Promise<RunNowResult> {
  const schedule = schedules.find((each) => each.name === name);
  if (!schedule)
    return { ok: false, kind: "notFound", error: "admin.automation.errors.scheduleNotFound" };
  return inTransaction(db, async (trx) => {
    const id = await enqueueScheduleRun(trx, schedule, { now });
    if (id === null) return { ok: true, queued: false };
    await record(trx, {
      type: "schedule.runRequested",
      actorId,
      schedule: schedule.name,
      jobId: id,
    });
    return { ok: true, queued: true };
  });
}

export type JobActionResult =
  { ok: true } | { ok: false; kind: "notFound" | "conflict"; error: AutomationError };

async function recordedJobChange(
  db: Db,
  { id, actorId, action }: { id: number; actorId: string; action: "retry" | "discard" },
  change: (trx: Tx) => Promise<JobChangeResult>,
): Promise<JobActionResult> {
  return inTransaction(db, async (trx) => {
    const result = await change(trx);
    if (!result.ok) refuse<JobActionResult>(result.kind, result.error);
    const { job } = result as Extract<JobChangeResult, { ok: true }>;
    await record(trx, {
      type: action === "retry" ? "job.retried" : "job.discarded",
      actorId,
      jobId: id,
      job: {
        type: job.type,
        state: job.state,
        attempts: job.attempts,
        lastError: job.last_error,
        payload: job.payload,
      },
    });
    return { ok: true };
  });
}

/** Retry: a failed or dead job runs again now, its attempts counted afresh (audited). */
export function retryJob(db: Db, input: { id: number; actorId: string; now?: Date }) {
  return recordedJobChange(db, { ...input, action: "retry" }, (trx) =>
    requeueJob(trx, input.id, input.now ?? new Date()),
  );
}

/** Discard: a failed or dead job is removed and will not run again (audited, payload kept there). */
export function discardJob(db: Db, input: { id: number; actorId: string }) {
  return recordedJobChange(db, { ...input, action: "discard" }, (trx) =>
    deleteProblemJob(trx, input.id),
  );
}
