import { Cron } from "croner";

// When a schedule's runs fall due: cron expressions read in the site's time zone. Pure, but
// kept apart from jobs.ts so the admin page's bundle does not carry croner.

/** A recurring run: a cron expression read in the site's time zone, and the job type it queues. */
export interface ScheduleDefinition {
  name: string;
  cron: string;
  jobType: string;
  payload?: Record<string, unknown>;
  /** Attempts for each run before it is dead (default 3). */
  maxAttempts?: number;
}

/** The first slot of `cron` (in `timeZone`) strictly after `after`. */
export function nextSlot(cron: string, timeZone: string, after: Date): Date {
  const next = new Cron(cron, { timezone: timeZone, paused: true }).nextRun(after);
  if (!next) throw new Error(`The schedule "${cron}" has no run after ${after.toISOString()}`);
  return next;
}

/** Whether `cron` is an expression croner reads (five or six fields). */
export function isCronExpression(cron: string): boolean {
  try {
    new Cron(cron, { paused: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * What a process does with a schedule when it looks at it at `now`. A schedule seen for the first time
 * waits for its first slot. One whose slot has come (or several slots, while every process was down)
 * queues ONE run, named by the slot that fell due first, and moves on to the first slot after now: the
 * missed slots are not run one by one.
 */
export function scheduleStep(
  schedule: Pick<ScheduleDefinition, "cron">,
  state: { nextRunAt: string } | undefined,
  now: Date,
  timeZone: string,
):
  | { kind: "first"; nextRunAt: Date }
  | { kind: "wait" }
  | { kind: "due"; slot: Date; nextRunAt: Date } {
  if (!state) return { kind: "first", nextRunAt: nextSlot(schedule.cron, timeZone, now) };
  const due = new Date(state.nextRunAt);
  if (due.getTime() > now.getTime()) return { kind: "wait" };
  return { kind: "due", slot: due, nextRunAt: nextSlot(schedule.cron, timeZone, now) };
}

/** The key that makes a schedule's run at one slot a single job, whichever process queues it. */
export function slotKey(name: string, slot: Date): string {
  return `schedule:${name}:${slot.toISOString()}`;
}

/** The key of a run an admin asked for: one waiting at a time, so a second click adds nothing. */
export function manualRunKey(name: string): string {
  return `schedule:${name}:now`;
}

/**
 * Whether a schedule has gone stale at `now`: no process has queued its run for longer than
 * twice its interval. `nextRunAt` is the slot it waits for, so its last run was one interval before it;
 * it is stale once `now` passes that slot by more than an interval (the interval is the time between two
 * consecutive slots of the cron). A fresh install waits for its first slot and is not stale then. The
 * episode is named by the awaited slot: once the schedule runs again, a later staleness is a new one.
 */
export function staleSlot(
  schedule: Pick<ScheduleDefinition, "cron">,
  nextRunAt: string,
  now: Date,
  timeZone: string,
): Date | null {
  const awaited = new Date(nextRunAt);
  const interval = nextSlot(schedule.cron, timeZone, awaited).getTime() - awaited.getTime();
  return now.getTime() - awaited.getTime() > interval ? awaited : null;
}

/** The key of one stale episode of a schedule: its alert is raised once, by whichever process sees it. */
export function staleKey(name: string, awaited: Date): string {
  return `stale:${name}:${awaited.toISOString()}`;
}
