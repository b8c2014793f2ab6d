import type { Db, Tx } from "~/db/transaction";
import { inTransaction } from "~/db/transaction";
import { enqueueJob } from "./jobs.server";
import { manualRunKey, scheduleStep, slotKey, type ScheduleDefinition } from "./schedule-slots";

/**
 * Looks at every schedule at `now` and queues the runs that are due (a use-case; every worker process
 * calls it on each poll). Each schedule is moved on in its own transaction, only from the slot this
 * process read (`where next_run_at = <read>`), and its run is queued in the same transaction under the
 * slot's unique key: two processes looking at once queue one run, and a schedule that missed several
 * slots while every process was down runs once. Returns the names of the schedules queued.
 */
export async function queueDueSchedules(
  db: Db,
  schedules: readonly ScheduleDefinition[],
  { now, timeZone }: { now: Date; timeZone: string },
): Promise<string[]> {
  if (schedules.length === 0) return [];
  const rows = await db
    .selectFrom("job_schedules")
    .select(["name", "next_run_at"])
    .where(
      "name",
      "in",
      schedules.map((schedule) => schedule.name),
    )
    .execute();
  const states = new Map(rows.map((row) => [row.name, row.next_run_at]));
  const queued: string[] = [];
  for (const schedule of schedules) {
    const read = states.get(schedule.name);
    const step = scheduleStep(schedule, read ? { nextRunAt: read } : undefined, now, timeZone);
    if (step.kind === "wait") continue;
    const at = now.toISOString();
    if (step.kind === "first") {
      await db
        .insertInto("job_schedules")
        .values({ name: schedule.name, next_run_at: step.nextRunAt.toISOString(), updated_at: at })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      continue;
    }
    const moved = await inTransaction(db, async (trx) => {
      const result = await trx
        .updateTable("job_schedules")
        .set({
          next_run_at: step.nextRunAt.toISOString(),
          last_slot_at: step.slot.toISOString(),
          updated_at: at,
        })
        .where("name", "=", schedule.name)
        .where("next_run_at", "=", read!)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await enqueueScheduleRun(trx, schedule, {
        now,
        uniqueKey: slotKey(schedule.name, step.slot),
      });
      return true;
    });
    if (moved) queued.push(schedule.name);
  }
  return queued;
}

/** A step: queues one run of `schedule` (under `uniqueKey`); null when that run waits already. */
export function enqueueScheduleRun(
  trx: Tx,
  schedule: ScheduleDefinition,
  { now, uniqueKey = manualRunKey(schedule.name) }: { now: Date; uniqueKey?: string },
): Promise<number | null> {
  return enqueueJob(trx, {
    type: schedule.jobType,
    payload: schedule.payload ?? {},
    maxAttempts: schedule.maxAttempts ?? 3,
    uniqueKey,
    schedule: schedule.name,
    now,
  });
}
