import type { Db } from "~/db/transaction";

/** A worker whose heartbeat is older than this is not counted as running. */
export const WORKER_ALIVE_MS = 2 * 60_000;

export interface WorkerHealth {
  /** The newest heartbeat of any worker process, or null when none ever beat. */
  lastHeartbeat: string | null;
  /** Worker processes whose heartbeat is recent. */
  workers: number;
  deadJobs: number;
  /** Jobs waiting to run now or later, failed ones included. */
  queuedJobs: number;
}

/** What /healthz?deep=1 reports of the background worker (docs/automation.md). */
export async function workerHealth(db: Db, now = new Date()): Promise<WorkerHealth> {
  const alive = new Date(now.getTime() - WORKER_ALIVE_MS).toISOString();
  const [beats, states] = await Promise.all([
    db
      .selectFrom("job_workers")
      .select((eb) => [
        eb.fn.max("beat_at").as("last"),
        eb.fn.countAll<number>().filterWhere("beat_at", ">=", alive).as("alive"),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("jobs")
      .select("state")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("state", "in", ["dead", "queued", "failed"])
      .groupBy("state")
      .execute(),
  ]);
  const count = (state: string) => Number(states.find((row) => row.state === state)?.n ?? 0);
  const last = beats.last as string | null;
  return {
    lastHeartbeat: last === null ? null : new Date(last).toISOString(),
    workers: Number(beats.alive),
    deadJobs: count("dead"),
    queuedJobs: count("queued") + count("failed"),
  };
}
