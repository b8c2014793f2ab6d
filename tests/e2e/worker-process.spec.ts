import { readdirSync, readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { ADMIN_EMAIL, ADMIN_PASSWORD, AUTH_SECRET, expect, test } from "./fixtures";
import { e2eFolder } from "../support/scratch";

// With several server processes (WEB_CONCURRENCY=2) the jobs run in one process of their own, which serves
// no request (server/primary.ts): the mixed-load soak found the jobs' writes holding up the pages of the
// process that ran them. The server processes run no worker; the worker process is replaced when it dies,
// and the new one takes the waiting jobs.

test.describe.configure({ mode: "serial" });

const TOKEN = "worker-process-health-token";
let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startOwnServer({
    folder: e2eFolder(`e2e-worker-process-${process.env.E2E_PORT ?? 3210}`),
    env: {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      AUTH_SECRET,
      WEB_CONCURRENCY: "2",
      HEALTHZ_TOKEN: TOKEN,
      WORKER_POLL_MS: "100",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

function read<T>(query: string, ...values: unknown[]): T[] {
  const db = new Database(server.databaseFile, { readonly: true });
  try {
    return db.prepare(query).all(...values) as T[];
  } finally {
    db.close();
  }
}

/** The processes that ran a worker: the pid inside each heartbeat's owner ("host:pid:random"). */
function workerPids(): number[] {
  return read<{ owner: string }>("select owner from job_workers order by beat_at").map((row) =>
    Number(row.owner.split(":").at(-2)),
  );
}

/** A message queued as the site queues one (its outbox row and its send job), in the database file. */
function queueMessage(key: string): number {
  const db = new Database(server.databaseFile);
  try {
    const at = new Date().toISOString();
    const outbox = db
      .prepare(
        `insert into mail_outbox (unique_key, kind, to_address, locale, params, state, created_at, updated_at)
         values (?, 'passwordChanged', 'someone@example.test', 'en', ?, 'queued', ?, ?)`,
      )
      .run(key, JSON.stringify({ at }), at, at);
    db.prepare(
      `insert into jobs (type, payload, state, run_at, attempts, max_attempts, unique_key, created_at, updated_at)
       values ('mail.send', ?, 'queued', ?, 0, 10, ?, ?, ?)`,
    ).run(JSON.stringify({ outboxId: Number(outbox.lastInsertRowid) }), at, `mail:${key}`, at, at);
    return Number(outbox.lastInsertRowid);
  } finally {
    db.close();
  }
}

/** The processes the cluster primary forked (Linux's /proc: the fourth field of stat is the parent). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (name) state ppid ...": the name may hold spaces, so read after its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** A process's nice value (the nineteenth field of /proc's stat): higher runs later under load. */
function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

const stateOf = (id: number) =>
  read<{ state: string }>("select state from mail_outbox where id = ?", id)[0]?.state;

test("two server processes and one worker process: the jobs run, and a dead worker process is replaced", async ({
  request,
}) => {
  // The bounds below only end a wait that failed: a niced worker process on a loaded host may take tens
  // of seconds to load the server build and write its first heartbeat.
  test.setTimeout(240_000);
  // Three processes under the primary: two serve, one works. Only that one runs a worker.
  const primary = server.child.pid!;
  await expect.poll(() => childrenOf(primary).length, { timeout: 60_000 }).toBe(3);
  await expect.poll(workerPids, { timeout: 60_000 }).toHaveLength(1);
  expect(childrenOf(primary)).toContain(workerPids()[0]);
  // The worker process yields the CPU to the server processes: its jobs can wait, requests cannot.
  const servers = childrenOf(primary).filter((pid) => pid !== workerPids()[0]);
  expect(servers).toHaveLength(2);
  for (const pid of servers) expect(niceOf(workerPids()[0]!)).toBeGreaterThan(niceOf(pid));
  const deep = await request.get(`${server.url}/healthz?deep=1`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(deep.status()).toBe(200);
  expect((await deep.json()).worker).toMatchObject({ workers: 1, deadJobs: 0 });

  // A job runs there (no SMTP_URL: the message is written and kept).
  const first = queueMessage("worker-process-1");
  await expect.poll(() => stateOf(first), { timeout: 30_000 }).toBe("kept");

  // Killed, it is replaced by a new worker process, which takes the next job; the site kept answering.
  const [pid] = workerPids();
  process.kill(pid!, "SIGKILL");
  await expect.poll(() => workerPids().length, { timeout: 60_000 }).toBe(2);
  expect(workerPids()[1]).not.toBe(pid);
  expect(childrenOf(primary)).toContain(workerPids()[1]);
  expect(childrenOf(primary)).toHaveLength(3);
  expect((await request.get(`${server.url}/healthz`)).status()).toBe(200);
  const second = queueMessage("worker-process-2");
  await expect.poll(() => stateOf(second), { timeout: 30_000 }).toBe("kept");
  expect(server.stderr()).not.toMatch(/stopped before/);
});
