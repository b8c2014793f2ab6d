/**
 * npm run soak:jobs — the durable worker (ADR 28) under 10,000 queued jobs, with worker OS
 * processes killed mid-run. On PostgreSQL (a throwaway cluster, durable: fsync, synchronous_commit and
 * full_page_writes on, as production runs it) 4 worker processes share the jobs; on SQLite 2 processes
 * share them on one file, as production runs several server processes on one file. Each process is the
 * fleet test's worker (tests/support/job-fleet-worker.ts: the real runner, concurrency 8, a 2 s lease
 * here), whose handler records every execution in job_executions and its effect, idempotently, in
 * job_effects (one row per job key): effects are counted in a table, not in log lines.
 *
 * Every worker is polling before the jobs appear, all in one commit. Once 30% of the jobs have succeeded
 * one worker is killed with SIGKILL, and on PostgreSQL a second one at 60%; the jobs each held (running,
 * leased to it) must be done by the others once their lease runs out. The run ends when every job has
 * succeeded (or at the time limit); the survivors are then stopped with SIGTERM and must exit 0.
 *
 * Verdicts per database (the fleet test's assertions, at scale): one effect per job (JOBS distinct
 * effects), every job executed, every job succeeded and none left queued, running, failed or dead; a job
 * ran more than once only if a killed worker held it, each job a killed worker held was executed by
 * another, and none of those by a live worker before the kill (which would be two runs at once); each kill found jobs held (or it tested nothing); no worker but the victims exited before the
 * end, and the survivors stopped cleanly; the whole run (from the enqueue's commit to the last success)
 * under TIME_LIMIT_S. The throughput (jobs/s over that time) is printed, not judged: it is the handler's
 * 10 ms sleep and two writes per job, and the machine's load. Exit code 1 when a verdict is missed.
 *
 * `--quick` runs 500 jobs (to prove the script works; not a measure); --sqlite-only skips PostgreSQL.
 * Needs no build: it runs the domain's runner, not the server.
 */
import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { sql, type RawBuilder } from "kysely";
import { parseEnv } from "../../app/config/env.server";
import { createServices, prepareDatabase } from "../../app/context.server";
import type { DialectName } from "../../app/db/database.server";
import { inTransaction } from "../../app/db/transaction";
import { enqueueJob } from "../../app/domain/jobs/jobs.server";
import { createFleetTables, fleetMessage, startFleetWorker } from "../../tests/support/job-fleet";
import {
  describeDurability,
  durabilitySettings,
  findPostgresBin,
  isDurable,
  startPostgresCluster,
} from "../../tests/support/postgres-cluster";
import {
  BENCH_ADMIN,
  BENCH_SECRET,
  below,
  none,
  passes,
  printTable,
  QUICK,
  reportVerdicts,
  type Verdict,
} from "../bench/lib";

const JOBS = QUICK ? 500 : Number(process.env.SOAK_JOBS ?? 10_000);
const LEASE_MS = 2_000;
/** From the enqueue's commit to the last job's success, per database. */
const TIME_LIMIT_S = 300;
const FLEETS = [
  // One kill on SQLite: a second would leave a single process, which proves nothing about sharing.
  { dialect: "sqlite", processes: 2, killsAt: [0.3] },
  { dialect: "postgres", processes: 4, killsAt: [0.3, 0.6] },
] as const;

const fmt = (n: number) => n.toLocaleString("en-US");
const verdicts: Verdict[] = [];

interface Outcome {
  database: string;
  processes: number;
  seconds: number;
  effects: number;
  executed: number;
  executions: number;
  succeeded: number;
  notSucceeded: number;
  held: number[];
  repeatedUnheld: number;
  heldNotRetaken: number;
  overlapping: number;
  unexpectedExits: number;
  survivorsNotClean: number;
  problems: string[];
}

async function soak(
  dialect: DialectName,
  databaseUrl: string,
  processes: number,
  killsAt: readonly number[],
): Promise<Outcome> {
  const services = createServices({
    ...parseEnv({
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      // The bench signs its admin in with a password alone (a new install would ask an owner for two-factor).
      FIRST_START_TWO_FACTOR_ROLES: "none",
    }),
    AUTH_SECRET: BENCH_SECRET,
  });
  const { db } = services;
  const problems: string[] = [];
  const children: ChildProcess[] = [];
  const owners = Array.from({ length: processes }, (_, i) => `w${i}`);
  const victims = killsAt.map((_, i) => owners[i]!);
  const killed = new Set<string>();
  const exits = new Map<string, number | string>();
  try {
    await prepareDatabase(services);
    await createFleetTables(db, dialect);
    for (const owner of owners) {
      const child = startFleetWorker(databaseUrl, owner, { leaseMs: LEASE_MS });
      child.once("exit", (code, signal) => exits.set(owner, signal ?? code ?? "?"));
      children.push(child);
    }
    await Promise.all(children.map((child) => fleetMessage(child, "ready")));
    await inTransaction(db, async (trx) => {
      for (let i = 0; i < JOBS; i++)
        await enqueueJob(trx, { type: "fleet.effect", payload: { key: `k${i}` } });
    });
    const started = performance.now();
    console.log(`${dialect}: ${fmt(JOBS)} jobs queued for ${processes} worker processes`);

    const succeededSoFar = async () =>
      Number(
        (
          await db
            .selectFrom("jobs")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("state", "=", "succeeded")
            .executeTakeFirstOrThrow()
        ).n,
      );
    const heldBy = new Map<string, string[]>();
    /** The last execution row written when each victim was gone: anything after it began later. */
    const lastExecutionAtKill = new Map<string, number>();
    const deadline = Date.now() + TIME_LIMIT_S * 1000;
    let nextKill = 0;
    let done = 0;
    for (;;) {
      done = await succeededSoFar();
      if (nextKill < killsAt.length && done >= killsAt[nextKill]! * JOBS) {
        const owner = victims[nextKill]!;
        const victim = children[owners.indexOf(owner)]!;
        const gone = new Promise((resolve) => victim.once("exit", resolve));
        killed.add(owner);
        victim.kill("SIGKILL");
        await gone;
        lastExecutionAtKill.set(
          owner,
          Number(
            (await sql<{ n: number | null }>`select max(id) as n from job_executions`.execute(db))
              .rows[0]!.n ?? 0,
          ),
        );
        const held = await db
          .selectFrom("jobs")
          .select("payload")
          .where("state", "=", "running")
          .where("lease_owner", "=", owner)
          .execute();
        heldBy.set(
          owner,
          held.map((job) => (JSON.parse(job.payload) as { key: string }).key),
        );
        console.log(
          `${dialect}: ${owner} killed (SIGKILL) at ${fmt(done)} succeeded, holding ${held.length} job(s)`,
        );
        nextKill++;
        continue;
      }
      if (done === JOBS) break;
      if (Date.now() > deadline) {
        problems.push(`${fmt(JOBS - done)} job(s) not done within ${TIME_LIMIT_S} s`);
        break;
      }
      // Often while kills are due, so a kill lands mid-run even in a quick run's second or two.
      await sleep(nextKill < killsAt.length ? 20 : 100);
    }
    const seconds = (performance.now() - started) / 1000;
    if (nextKill < killsAt.length)
      problems.push(`only ${nextKill} of ${killsAt.length} kills made`);

    const unexpectedExits = owners.filter((o) => !killed.has(o) && exits.has(o));
    const survivors = owners.filter((o) => !killed.has(o) && !exits.has(o));
    const survivorExits = survivors.map(
      (owner) =>
        new Promise<number | string>((resolve) => {
          const child = children[owners.indexOf(owner)]!;
          child.once("exit", (code, signal) => resolve(signal ?? code ?? "?"));
          const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
          force.unref();
        }),
    );
    for (const owner of survivors) children[owners.indexOf(owner)]!.kill("SIGTERM");
    const survivorCodes = await Promise.all(survivorExits);

    const one = async (query: RawBuilder<{ n: number | string }>) =>
      Number((await query.execute(db)).rows[0]!.n);
    const effects = await one(sql`select count(*) as n from job_effects`);
    const executed = await one(sql`select count(distinct job_key) as n from job_executions`);
    const executions = await one(sql`select count(*) as n from job_executions`);
    const states = await db
      .selectFrom("jobs")
      .select(["state"])
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .groupBy("state")
      .execute();
    const succeeded = Number(states.find((row) => row.state === "succeeded")?.n ?? 0);
    const notSucceeded = states
      .filter((row) => row.state !== "succeeded")
      .reduce((n, row) => n + Number(row.n), 0);
    if (notSucceeded)
      problems.push(
        `jobs not succeeded: ${states
          .filter((row) => row.state !== "succeeded")
          .map((row) => `${row.state} ${row.n}`)
          .join(", ")}`,
      );
    const allHeld = new Set([...heldBy.values()].flat());
    const repeated = await sql<{ job_key: string }>`
      select job_key from job_executions group by job_key having count(*) > 1`.execute(db);
    const repeatedUnheld = repeated.rows.filter((row) => !allHeld.has(row.job_key)).length;
    let heldNotRetaken = 0;
    let overlapping = 0;
    for (const [owner, keys] of heldBy) {
      // A job the victim held was running there until the kill: another worker (not one killed before
      // it, whose run had ended) that started it before the kill would have run it at the same time.
      const earlier = [...heldBy.keys()].slice(0, [...heldBy.keys()].indexOf(owner));
      const cutoff = lastExecutionAtKill.get(owner) ?? 0;
      const beforeKill = await sql<{ job_key: string; owner: string }>`
        select job_key, owner from job_executions where id <= ${cutoff}`.execute(db);
      const heldHere = new Set(keys);
      overlapping += new Set(
        beforeKill.rows
          .filter(
            (row) =>
              heldHere.has(row.job_key) && row.owner !== owner && !earlier.includes(row.owner),
          )
          .map((row) => row.job_key),
      ).size;
      const others = await sql<{ job_key: string }>`
        select distinct job_key from job_executions where owner <> ${owner}`.execute(db);
      const byOthers = new Set(others.rows.map((row) => row.job_key));
      heldNotRetaken += keys.filter((key) => !byOthers.has(key)).length;
    }
    const outcome: Outcome = {
      database: dialect,
      processes,
      seconds,
      effects,
      executed,
      executions,
      succeeded,
      notSucceeded,
      held: victims.map((owner) => heldBy.get(owner)?.length ?? 0),
      repeatedUnheld,
      heldNotRetaken,
      overlapping,
      unexpectedExits: unexpectedExits.length,
      survivorsNotClean: survivorCodes.filter((code) => code !== 0).length,
      problems,
    };
    console.log(
      `${dialect}: ${fmt(succeeded)} succeeded in ${seconds.toFixed(1)} s (${(JOBS / seconds).toFixed(0)} jobs/s), ${fmt(effects)} effects, ${fmt(executions)} executions of ${fmt(executed)} jobs${problems.length ? `; ${problems.join("; ")}` : ""}`,
    );
    return outcome;
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    await services.database.destroy();
  }
}

function judge(o: Outcome) {
  const d = o.database;
  verdicts.push(
    passes(`${d}: one effect per job`, o.effects === JOBS, `${fmt(o.effects)} of ${fmt(JOBS)}`),
    passes(`${d}: every job executed`, o.executed === JOBS, `${fmt(o.executed)} of ${fmt(JOBS)}`),
    passes(
      `${d}: every job succeeded`,
      o.succeeded === JOBS,
      `${fmt(o.succeeded)} of ${fmt(JOBS)}`,
    ),
    none(`${d}: jobs left queued, running, failed or dead`, o.notSucceeded),
    passes(
      `${d}: each SIGKILL found jobs held`,
      o.held.length > 0 && o.held.every((n) => n > 0),
      o.held.join(" and "),
    ),
    none(`${d}: jobs run twice that no killed worker held`, o.repeatedUnheld),
    none(`${d}: jobs a killed worker held, not done by another`, o.heldNotRetaken),
    none(
      `${d}: held jobs another worker started before the kill (two runs at once)`,
      o.overlapping,
    ),
    none(`${d}: other worker processes that exited`, o.unexpectedExits),
    none(`${d}: survivors not stopping cleanly on SIGTERM`, o.survivorsNotClean),
    below(`${d}: ${fmt(JOBS)} jobs done`, Math.round(o.seconds * 10) / 10, TIME_LIMIT_S, " s"),
  );
}

const outcomes: Outcome[] = [];
const sqliteUrl = "file:./.tmp/soak-jobs-sqlite/hostfront.db";
rmSync(path.dirname(sqliteUrl.slice(5)), { recursive: true, force: true });
outcomes.push(await soak("sqlite", sqliteUrl, FLEETS[0].processes, FLEETS[0].killsAt));
if (process.argv.includes("--sqlite-only")) {
  console.log("--sqlite-only: skipping the PostgreSQL run.");
} else if (findPostgresBin()) {
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const settings = await durabilitySettings(cluster.url);
    console.log(`PostgreSQL: ${describeDurability(settings)}`);
    verdicts.push(
      passes("postgres: commits durable", isDurable(settings), describeDurability(settings)),
    );
    outcomes.push(await soak("postgres", cluster.url, FLEETS[1].processes, FLEETS[1].killsAt));
  } finally {
    cluster.stop();
  }
} else {
  console.log("PostgreSQL server binaries not found: skipping the PostgreSQL run.");
  verdicts.push(passes("postgres: run", false, "skipped: no PostgreSQL binaries"));
}
for (const outcome of outcomes) judge(outcome);

for (const o of outcomes)
  printTable(
    `Job soak, ${o.database}: ${fmt(JOBS)} jobs, ${o.processes} worker processes (concurrency 8 each, ${LEASE_MS / 1000} s lease), ${o.held.length} killed with SIGKILL`,
    [
      {
        jobs: fmt(JOBS),
        processes: o.processes,
        "held at the kills": o.held.join(" + "),
        executions: fmt(o.executions),
        "run twice": fmt(o.executions - o.executed),
        effects: fmt(o.effects),
        succeeded: fmt(o.succeeded),
        seconds: o.seconds.toFixed(1),
        "jobs/s": (JOBS / o.seconds).toFixed(0),
      },
    ],
  );
reportVerdicts(
  `job soak${QUICK ? " (--quick: 500 jobs, not a measure)" : ""} (copy these rows into docs/performance.md)`,
  verdicts,
);
process.exit(process.exitCode ?? 0);
