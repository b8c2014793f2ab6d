/**
 * What the worker fleet test (tests/integration/worker-fleet.test.ts) and the job soak
 * (scripts/soak/jobs.ts) share: the worker process entry (job-fleet-worker.ts), the two tables its
 * handler writes (every execution, and the effect once per job key), and waiting for a worker's message.
 * Nothing here imports vitest, so the soak can use it outside a test run.
 */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import type { DialectName } from "~/db/database.server";
import type { Database } from "~/db/schema";

export const FLEET_WORKER = path.resolve(import.meta.dirname, "job-fleet-worker.ts");

/**
 * job_effects holds one row per job key (the effect, written idempotently); job_executions a row per time
 * a handler started on a key, with the worker that ran it.
 */
export async function createFleetTables(db: Kysely<Database>, dialect: DialectName) {
  await sql`create table job_effects (job_key text primary key)`.execute(db);
  const id =
    dialect === "postgres" ? sql`bigserial primary key` : sql`integer primary key autoincrement`;
  await sql`create table job_executions (id ${id}, job_key text not null, owner text not null)`.execute(
    db,
  );
}

/**
 * Starts one worker OS process named `owner` on the database. `leaseMs` (default 1,500) is its lease;
 * it says "busy" once it has started `busyAfter` jobs (default 40). With `holdWhenBusy`, every job it
 * starts from then on is held and never finished, so that it certainly holds jobs when it is killed:
 * on a loaded machine the others could otherwise finish every job before the kill lands.
 */
export function startFleetWorker(
  databaseUrl: string,
  owner: string,
  options: { leaseMs?: number; busyAfter?: number; holdWhenBusy?: boolean } = {},
): ChildProcess {
  return fork(FLEET_WORKER, [databaseUrl, owner], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: {
      ...process.env,
      ...(options.leaseMs ? { FLEET_LEASE_MS: String(options.leaseMs) } : {}),
      ...(options.busyAfter ? { FLEET_BUSY_AFTER: String(options.busyAfter) } : {}),
      ...(options.holdWhenBusy ? { FLEET_HOLD_WHEN_BUSY: "1" } : {}),
    },
  });
}

/** Resolves when the worker sends a message of this type; rejects if it exits first. */
export function fleetMessage(child: ChildProcess, type: string) {
  return new Promise<void>((resolve, reject) => {
    const onMessage = (m: { type?: string }) => {
      if (m?.type !== type) return;
      child.off("exit", onExit);
      child.off("message", onMessage);
      resolve();
    };
    const onExit = (code: number | null) =>
      reject(new Error(`worker exited (${code}) before "${type}"`));
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}
