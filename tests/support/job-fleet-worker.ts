/**
 * One worker process of the fleet test (tests/integration/worker-fleet.test.ts) and the job soak
 * (scripts/soak/jobs.ts), started by job-fleet.ts: the real runner on the database at argv[2], named
 * argv[3], running the test's one job type, with a lease of FLEET_LEASE_MS (default 1,500 ms). Its
 * handler records every execution (job_executions) and its effect idempotently (job_effects, one row
 * per job key), so the test counts effects, not log lines. Tells its parent once it is busy
 * (FLEET_BUSY_AFTER jobs started, default 40, so it can be killed mid-run; with FLEET_HOLD_WHEN_BUSY
 * it then holds every job it starts, unfinished), and stops gracefully on SIGTERM.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { createDatabase } from "~/db/database.server";
import { startWorker } from "~/domain/jobs/runner.server";

const [url, owner] = process.argv.slice(2) as [string, string];
// On PostgreSQL each connection is named after its worker, so a test can wait until a killed worker's
// server backends are gone (a COMMIT it sent just before dying may still land until then).
const database = createDatabase(
  url.startsWith("postgres") ? withApplicationName(url, `fleet-${owner}`) : url,
  { poolSize: 6 },
);
const { db } = database;

function withApplicationName(databaseUrl: string, name: string) {
  const parsed = new URL(databaseUrl);
  parsed.searchParams.set("application_name", name);
  return parsed.toString();
}
let started = 0;
const leaseMs = Number(process.env.FLEET_LEASE_MS ?? 1500);
const busyAfter = Number(process.env.FLEET_BUSY_AFTER ?? 40);
const holdWhenBusy = process.env.FLEET_HOLD_WHEN_BUSY === "1";

const worker = startWorker({
  db,
  owner,
  schedules: [],
  timeZone: async () => "UTC",
  config: { leaseMs, pollMs: 20, backoffMs: 50, concurrency: 8 },
  handlers: {
    "fleet.effect": async ({ db, payload }) => {
      const { key } = payload as { key: string };
      if (++started === busyAfter) process.send?.({ type: "busy" });
      await sql`insert into job_executions (job_key, owner) values (${key}, ${owner})`.execute(db);
      // Held until the process is killed: its lease runs out and another worker finishes it.
      if (holdWhenBusy && started >= busyAfter) await new Promise<never>(() => {});
      await sleep(10);
      await sql`insert into job_effects (job_key) values (${key}) on conflict do nothing`.execute(
        db,
      );
    },
  },
});
process.send?.({ type: "ready" });

process.on("SIGTERM", () => {
  void worker.stop(5000).then(async () => {
    await database.destroy();
    process.exit(0);
  });
});
