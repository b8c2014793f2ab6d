import type { ChildProcess } from "node:child_process";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices, prepareDatabase, type AppServices } from "~/context.server";
import { inTransaction } from "~/db/transaction";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { createFleetTables, fleetMessage, startFleetWorker } from "../support/job-fleet";
import { createTestDatabaseUrl, testEnv } from "../support/test-database";

async function backendCount(db: AppServices["db"], applicationName: string) {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity where application_name = ${applicationName}`.execute(
    db,
  );
  return rows[0]!.n;
}

// PostgreSQL at full size (4 processes, 2,000 jobs); SQLite as production runs it with several
// server processes on one file (2 processes, fewer jobs: one writer at a time).
const FLEETS = [
  { dialect: "postgres", processes: 4, jobs: 2000 },
  { dialect: "sqlite", processes: 2, jobs: 400 },
] as const;

// Worker processes on one database share the jobs with a short lease; one is killed with
// SIGKILL in the middle, and the jobs it held are done by the others once their lease runs out. Every
// job's effect happens exactly once, counted in a table.
describe.each(FLEETS)(
  "a fleet of worker processes [$dialect]",
  ({ dialect, processes, jobs: JOBS }) => {
    let services: AppServices;
    let drop: () => Promise<void>;
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      const database = await createTestDatabaseUrl(dialect);
      drop = database.drop;
      services = createServices(testEnv(database.url));
      await prepareDatabase(services);
      await createFleetTables(services.db, dialect);
    });
    afterAll(async () => {
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
      await services.database.destroy();
      await drop();
    });

    it("does every job's effect exactly once, the killed worker's jobs by the others", async () => {
      const { db } = services;
      const owners = Array.from({ length: processes }, (_, i) => `w${i}`);
      for (const owner of owners) {
        // The victim (w0) holds the jobs it starts once busy, so it is mid-run when killed.
        const child = startFleetWorker(services.env.DATABASE_URL, owner, {
          holdWhenBusy: owner === "w0",
        });
        children.push(child);
      }
      // Every worker is polling before the jobs appear (in one commit), so each gets its share.
      await Promise.all(children.map((child) => fleetMessage(child, "ready")));
      await inTransaction(db, async (trx) => {
        for (let i = 0; i < JOBS; i++)
          await enqueueJob(trx, { type: "fleet.effect", payload: { key: `k${i}` } });
      });
      const victim = children[0]!;
      await fleetMessage(victim, "busy");
      if (dialect === "postgres") expect(await backendCount(db, "fleet-w0")).toBeGreaterThan(0);
      victim.kill("SIGKILL");
      await new Promise((resolve) => victim.once("exit", resolve));
      // The process is gone, but on PostgreSQL its server backends live until they notice: a COMMIT it
      // had sent (a job's completion) can still land. Jobs read as held before that could then be
      // finished by w0 itself, so read them once its backends have ended.
      if (dialect === "postgres")
        await expect
          .poll(() => backendCount(db, "fleet-w0"), { timeout: 10_000, interval: 20 })
          .toBe(0);
      const held = await db
        .selectFrom("jobs")
        .select(["id", "payload"])
        .where("state", "=", "running")
        .where("lease_owner", "=", "w0")
        .execute();
      expect(held.length).toBeGreaterThan(0);

      // The survivors take the killed worker's jobs once their leases run out, and finish the rest.
      await expect
        .poll(
          async () => {
            const left = await db
              .selectFrom("jobs")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .where("state", "!=", "succeeded")
              .executeTakeFirstOrThrow();
            return Number(left.n);
          },
          { timeout: 45_000, interval: 100 },
        )
        .toBe(0);

      const effects = await sql<{ n: number }>`select count(*) as n from job_effects`.execute(db);
      expect(effects.rows[0]!.n).toBe(JOBS);
      const states = await db
        .selectFrom("jobs")
        .select(["state"])
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .groupBy("state")
        .execute();
      expect(states.map((row) => [row.state, Number(row.n)])).toEqual([["succeeded", JOBS]]);
      // A job ran more than once only if the killed worker held it; those were finished by the others.
      const repeated = await sql<{ job_key: string }>`
      select job_key from job_executions group by job_key having count(*) > 1`.execute(db);
      const heldKeys = held.map((job) => (JSON.parse(job.payload) as { key: string }).key);
      for (const { job_key } of repeated.rows) expect(heldKeys).toContain(job_key);
      const finishers = await sql<{ job_key: string }>`
      select distinct job_key from job_executions where owner <> 'w0'`.execute(db);
      const finishedByOthers = new Set(finishers.rows.map((row) => row.job_key));
      for (const key of heldKeys) expect(finishedByOthers.has(key)).toBe(true);
      // Every key ran.
      const executed = await sql<{
        n: number;
      }>`select count(distinct job_key) as n from job_executions`.execute(db);
      expect(executed.rows[0]!.n).toBe(JOBS);

      // The survivors stop gracefully on SIGTERM.
      const exits = children
        .slice(1)
        .map(
          (child) =>
            new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))),
        );
      for (const child of children.slice(1)) child.kill("SIGTERM");
      expect(await Promise.all(exits)).toEqual(owners.slice(1).map(() => 0));
    }, 60_000);
  },
);
