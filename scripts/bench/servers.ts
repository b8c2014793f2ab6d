/**
 * npm run bench:servers — do many viewers of a customer's server cost the game panel one request per
 * cache period, and does the card's refresh answer fast while they watch (docs/server-control.md)? For
 * each database (SQLite with the app's own pragmas, and PostgreSQL on a durable throwaway cluster when its
 * binaries are there):
 *
 * 1. The production server from the build on a fresh database, which it prepares at boot, WEB_CONCURRENCY
 *    one per core, with its background worker process (production's settings: WORKER_POLL_MS 1 s,
 *    WORKER_CONCURRENCY 2, PANEL_POLL_MS 15 s). The fake Pterodactyl panel with its Client API, answering
 *    every request after 20 to 40 ms as a real panel takes, and an SA-MP query responder on UDP loopback
 *    for each game port, in a process of their own (servers-panel-host.ts). The panel connection is saved
 *    with its application and client keys (savePanelConnection; the setting gamePanel.allowLocalNetwork
 *    on, as an admin would for a trial), the seeded SA-MP plan given a provisioning block, and the panel
 *    checked once.
 * 2. CUSTOMERS customers (100), registered and given coins through the ledger (createCustomers), each
 *    signed in on DEVICES devices (5 sessions), place one order each, approved (approveOrder); the
 *    server's worker makes their servers on the fake panel as it does in production, and the run waits
 *    until every service is `ready`. Then every server is started on the panel (its customer would have).
 * 3. A warm-up that must not reach the panel: each of the 500 sessions asks for another customer's
 *    service's status, which must be a 404.
 * 4. The load: 500 viewers (100 customers × 5 devices: a customer sees only their own server, so 100
 *    servers have 5 viewers each) poll their service's status (`GET /dashboard/services/:id/status`, what
 *    the card asks while its page is open) every STATUS_REFRESH_MS (10 s) for LOAD_S (60 s), their
 *    starts spread evenly over the first 10 s, as pages opened at random would: 50 requests a second,
 *    evenly spaced, each timed from when it was due (paced-load.ts). A state older than STATUS_CACHE_MS
 *    (30 s) queues one `servers.status` job, which reads the server's resources on the Client API.
 * 5. The run waits until no status job waits or runs, then reads the panel's own log.
 *
 * Measured (servers-checks.ts): the panel's Client API requests per server per cache period (periods of
 * 30 s from the load's start, the requests after the load in one more), the most over servers and
 * periods, the shortest time between two requests of one server, and the total against the bound
 * 100 × ⌈60 s / 30 s⌉ + 100; the status route's p50, p95 and p99. Errors: a status request failed or not
 * 200, a warm-up request not 404 or one that reached the panel, a watched server not read again after a
 * period, a Client API request for another server, a dead job, a service whose status does not read
 * `running` after the load. The host's CPU index is printed before and after each round. Budgets (verdict
 * table, exit code 1 when one is missed) are written in docs/performance.md with why.
 *
 * `--quick` makes 10 customers and 40 s (its figures measure nothing); --sqlite-only skips PostgreSQL.
 * Builds the app first (`--reuse-build` keeps the benchmark's last build).
 */
import { fork, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { AppServices } from "../../app/context.server";
import { orderFormSchema } from "../../app/domain/orders/orders.schemas";
import { approveOrder, placeOrder } from "../../app/domain/orders/orders.server";
import {
  requestPanelCheck,
  savePanelConnection,
} from "../../app/domain/provisioning/panel-connection.server";
import type { PterodactylProvisioning } from "../../app/domain/provisioning/provisioning.schemas";
import { STATUS_CACHE_MS, STATUS_REFRESH_MS } from "../../app/domain/servers/server-control";
import { SERVER_STATUS_JOB } from "../../app/domain/servers/server-job-types";
import { DEFAULT_LOCATIONS } from "../../app/domain/settings/settings";
import { updateSettingsSection } from "../../app/domain/settings/settings.server";
import {
  describeDurability,
  durabilitySettings,
  findPostgresBin,
  freePort,
  isDurable,
  startPostgresCluster,
} from "../../tests/support/postgres-cluster";
import { describeCpu, probeCpu, type CpuReading } from "./cpu-probe";
import {
  BENCH_LOGS,
  BENCH_SECRET,
  BROWSER_HEADERS,
  benchServices,
  createCustomers,
  ensureBuild,
  passes,
  printTable,
  QUICK,
  reportVerdicts,
  SERVER_PROCESSES,
  signInCookie,
  startServer,
  warmUp,
  type RunningServer,
  type Verdict,
} from "./lib";
import { runPaced, type PacedResult } from "./paced-load";
import {
  countReads,
  describeErrors,
  serverVerdicts,
  type ReadsOutcome,
  type RouteFigures,
} from "./servers-checks";
import type {
  ServersPanelMessage,
  ServersPanelReady,
  ServersPanelRunAll,
  ServersPanelState,
  StampedRequest,
} from "./servers-panel-host";

const CUSTOMERS = QUICK ? 10 : 100;
/** Each customer's signed-in devices with the server's page open. */
const DEVICES = 5;
const VIEWERS = CUSTOMERS * DEVICES;
const LOAD_S = QUICK ? 40 : 60;
/** A real panel's answer, per request: PHP, its database and Wings behind it. */
const ANSWER_DELAY_MS = { min: 20, max: 40 };
/** Generous: past these the round stops and counts an error. */
const READY_LIMIT_S = 300;
const SETTLE_LIMIT_S = 60;

/** Budget (docs/performance.md, "A customer's server", says why). */
const STATUS_P95_MS = 100;

const LOCATION = DEFAULT_LOCATIONS[0];
const STATUS_PATH = (serviceId: number) => `/dashboard/services/${serviceId}/status`;
/** What the card's refresh sends: a same-site fetch asking for JSON, with the session's cookie. */
const STATUS_HEADERS = {
  ...BROWSER_HEADERS,
  accept: "application/json",
  "sec-fetch-site": "same-origin",
  "sec-fetch-mode": "cors",
  "sec-fetch-dest": "empty",
};
const fmt = (n: number) => n.toLocaleString("en-US");
const round1 = (n: number) => Math.round(n * 10) / 10;
const verdicts: Verdict[] = [];

function sampBlock(egg: { id: number; nestId: number }): PterodactylProvisioning {
  return {
    provisioner: "pterodactyl",
    nestId: egg.nestId,
    eggId: egg.id,
    dockerImage: "ghcr.io/parkervcp/games:samp",
    startup: "./samp03svr",
    memoryMb: 1024,
    swapMb: 0,
    diskMb: 5120,
    cpuPercent: 100,
    ioWeight: 500,
    databases: 0,
    backups: 1,
    allocations: 1,
    portLayout: "single",
    locationIds: [],
    nodeIds: [],
    environment: { VERSION: "0.3.7" },
    generatedVariables: ["RCON_PASS"],
    slotsVariable: "MAX_PLAYERS",
    httpPortVariable: null,
  };
}

// ---------------------------------------------------------------------------------------------------
// The panel's process

/** Resolves with the child's next message of `type`; rejects if it exits first or takes over `ms`. */
function messageOf<T>(child: ChildProcess, type: string, ms = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no "${type}" from the panel in ${ms} ms`)), ms);
    const onMessage = (message: { type?: string }) => {
      if (message?.type === type) done(null, message as T);
    };
    const onExit = (code: number | null) =>
      done(new Error(`the panel exited (${code}) before "${type}"`));
    function done(error: Error | null, value?: T) {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(value as T);
    }
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

interface PanelHost {
  ready: ServersPanelReady;
  ask<T>(message: ServersPanelMessage): Promise<T>;
  stop(): Promise<void>;
}

async function startPanelHost(label: string): Promise<PanelHost> {
  mkdirSync(BENCH_LOGS, { recursive: true });
  const fd = openSync(path.join(BENCH_LOGS, `servers-${label}-panel.log`), "w");
  const child = fork(
    path.resolve(import.meta.dirname, "servers-panel-host.ts"),
    // A few game ports to spare, as a node is never filled to its last port.
    [JSON.stringify({ answerDelayMs: ANSWER_DELAY_MS, gameServers: CUSTOMERS + 10 })],
    { execArgv: ["--import", "tsx"], stdio: ["ignore", fd, fd, "ipc"] },
  );
  closeSync(fd);
  const ready = await messageOf<ServersPanelReady>(child, "ready");
  return {
    ready,
    ask: (message) => {
      const answer = messageOf<never>(child, message.type);
      child.send(message);
      return answer;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

// ---------------------------------------------------------------------------------------------------
// One round

interface Round {
  database: string;
  cpuBefore: CpuReading | null;
  cpuAfter: CpuReading | null;
  setUpS: number;
  readyS: number;
  load: PacedResult | null;
  reads: ReadsOutcome | null;
  /** Client API requests while the app was set up (before the warm-up): not judged. */
  setUpClientRequests: number;
  /** Client API requests during the warm-up, whose every request was for another's service. */
  warmUpClientRequests: number;
  warmUpNot404: Record<string, number>;
  /** The web processes' and the worker's CPU over the load, in ms. */
  serverCpuMs: number | null;
  statusJobs: { count: number; attempts: number };
  deadJobs: string[];
  /** Services whose status did not read `running` with a read time once the load was over. */
  notRunning: string[];
  errors: string[];
}

async function waitForReady(services: AppServices, ids: number[], label: string) {
  const started = performance.now();
  let lastPrint = started;
  for (;;) {
    const rows = await services.db
      .selectFrom("hosting_services")
      .select(["panel_state"])
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("id", "in", ids)
      .groupBy("panel_state")
      .execute();
    const ready = Number(rows.find((row) => row.panel_state === "ready")?.n ?? 0);
    const now = performance.now();
    if (ready === ids.length) return (now - started) / 1000;
    if ((now - started) / 1000 > READY_LIMIT_S)
      throw new Error(
        `not every server ready within ${READY_LIMIT_S} s: ${rows.map((row) => `${row.panel_state} ${row.n}`).join(", ")}`,
      );
    if (now - lastPrint > 15_000) {
      lastPrint = now;
      console.log(
        `${label}: ${round1((now - started) / 1000)} s, ${rows.map((row) => `${row.panel_state} ${row.n}`).join(", ")}`,
      );
    }
    await sleep(250);
  }
}

/** Status jobs that wait or run; the run is settled when there are none. */
async function movableStatusJobs(services: AppServices): Promise<number> {
  const row = await services.db
    .selectFrom("jobs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("type", "=", SERVER_STATUS_JOB)
    .where("state", "in", ["queued", "running"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const isClientRequest = (request: StampedRequest) => request.url.startsWith("/api/client");

async function setUp(services: AppServices, panel: PanelHost, label: string) {
  const { db } = services;
  const { ready } = panel;
  const admin = await db
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .executeTakeFirstOrThrow();
  // The fake panel is on 127.0.0.1, which the panel's rules refuse unless this setting is on.
  await updateSettingsSection(db, "gamePanel", { allowLocalNetwork: true });
  const saved = await savePanelConnection(
    db,
    {
      url: ready.url,
      apiKey: ready.apiKey,
      clientKey: ready.clientApiKey,
      locationMap: { [LOCATION]: [ready.locationId] },
      actorId: admin.id,
    },
    { secret: BENCH_SECRET },
  );
  if (!saved.ok) throw new Error(`the panel connection was refused: ${saved.error}`);
  const product = await db
    .selectFrom("products")
    .select("id")
    .where("slug", "=", "samp-starter")
    .executeTakeFirstOrThrow();
  await db
    .updateTable("products")
    .set({ provisioning: JSON.stringify(sampBlock(ready.egg)) })
    .where("id", "=", product.id)
    .execute();
  // The snapshot the approval's room check reads, as the hourly refresh keeps it.
  const checkAsked = await requestPanelCheck(db);
  if (!checkAsked.ok) throw new Error(checkAsked.error);
  for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
    const row = await db
      .selectFrom("panel_connections")
      .select(["checked_at", "check_error"])
      .executeTakeFirstOrThrow();
    if (row.check_error) throw new Error(`the panel check failed: ${row.check_error}`);
    if (row.checked_at) break;
    if (Date.now() > deadline) throw new Error("the panel check did not run within 60 s");
  }

  const customers = await createCustomers(services, CUSTOMERS);
  // Each customer's other devices: sessions of their own, as a phone and a laptop have.
  const cookies: string[][] = [];
  for (const customer of customers) {
    const devices = [customer.cookie];
    for (let d = 1; d < DEVICES; d++) devices.push(await signInCookie(services, customer.email));
    cookies.push(devices);
  }
  const serviceIds: number[] = [];
  for (const [i, customer] of customers.entries()) {
    const placed = await placeOrder(
      db,
      customer.userId,
      orderFormSchema.parse({
        productId: Number(product.id),
        location: LOCATION,
        serverName: `watched ${i}`,
        idempotencyKey: `servers-bench-${label}-${i}`,
      }),
    );
    if (!placed.ok) throw new Error(`order ${i}: ${placed.error}`);
    const approved = await approveOrder(db, { orderId: placed.order.id, actorId: admin.id });
    if (!approved.ok) throw new Error(`approval ${i}: ${approved.error}`);
    serviceIds.push(approved.order.hostingServiceId!);
  }
  return { cookies, serviceIds };
}

async function runRound(database: string, databaseUrl: string): Promise<Round> {
  const result: Round = {
    database,
    cpuBefore: null,
    cpuAfter: null,
    setUpS: NaN,
    readyS: NaN,
    load: null,
    reads: null,
    setUpClientRequests: 0,
    warmUpClientRequests: 0,
    warmUpNot404: {},
    serverCpuMs: null,
    statusJobs: { count: 0, attempts: 0 },
    deadJobs: [],
    notRunning: [],
    errors: [],
  };
  const port = await freePort();
  let server: RunningServer | null = null;
  let panel: PanelHost | null = null;
  let services: AppServices | null = null;
  try {
    // The server first: it empties a SQLite database's folder, which no connection may hold open yet.
    server = await startServer({ port, databaseUrl });
    services = benchServices(databaseUrl);
    console.log(`${database}: the server logs at info into ${server.logFile}`);
    panel = await startPanelHost(database);
    const setUpStarted = performance.now();
    const { cookies, serviceIds } = await setUp(services, panel, database);
    result.setUpS = (performance.now() - setUpStarted) / 1000;
    console.log(
      `${database}: ${fmt(CUSTOMERS)} customers, ${fmt(VIEWERS)} sessions and approved orders in ${round1(result.setUpS)} s; waiting for the servers...`,
    );
    result.readyS = await waitForReady(services, serviceIds, database);
    const started = await panel.ask<ServersPanelRunAll>({ type: "runAll" });
    if (started.started !== CUSTOMERS)
      throw new Error(`${started.started} servers on the panel for ${CUSTOMERS} services`);
    const linked = await services.db
      .selectFrom("hosting_services")
      .select(["id", "panel_identifier"])
      .where("id", "in", serviceIds)
      .execute();
    const watched = linked.map((row) => row.panel_identifier ?? `none-${row.id}`);
    console.log(
      `${database}: ${fmt(CUSTOMERS)} servers ready ${round1(result.readyS)} s after the last approval, started on the panel`,
    );

    // The warm-up: every session asks for another customer's service, which must not reach the panel.
    const warmStart = Date.now();
    await warmUp(VIEWERS, async (viewer) => {
      const customer = viewer % CUSTOMERS;
      const other = serviceIds[(customer + 1) % CUSTOMERS]!;
      try {
        const response = await fetch(`${server!.url}${STATUS_PATH(other)}`, {
          headers: {
            ...STATUS_HEADERS,
            cookie: cookies[customer]![Math.floor(viewer / CUSTOMERS)]!,
          },
          redirect: "manual",
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        if (response.status !== 404) {
          const kind = `status ${response.status}`;
          result.warmUpNot404[kind] = (result.warmUpNot404[kind] ?? 0) + 1;
        }
      } catch (error) {
        const kind = (error as Error).name;
        result.warmUpNot404[kind] = (result.warmUpNot404[kind] ?? 0) + 1;
      }
    });

    // The load.
    result.cpuBefore = probeCpu();
    console.log(`${database}: ${describeCpu("before the load", result.cpuBefore)}`);
    const cpuBefore = server.cpuMs();
    const loadStart = Date.now();
    result.load = await runPaced({
      origin: server.url,
      rate: VIEWERS / (STATUS_REFRESH_MS / 1000),
      seconds: LOAD_S,
      request: (i) => {
        const viewer = i % VIEWERS;
        // Viewer v is customer v mod 100's device v div 100: a customer's devices opened 2 s apart.
        const customer = viewer % CUSTOMERS;
        return {
          path: STATUS_PATH(serviceIds[customer]!),
          headers: {
            ...STATUS_HEADERS,
            cookie: cookies[customer]![Math.floor(viewer / CUSTOMERS)]!,
          },
        };
      },
    });
    const cpuAfter = server.cpuMs();
    if (cpuBefore !== null && cpuAfter !== null) result.serverCpuMs = cpuAfter - cpuBefore;
    console.log(
      `${database}: ${fmt(result.load.sent)} status requests, p50 ${result.load.p50}, p95 ${result.load.p95}, p99 ${result.load.p99} ms; waiting for the last reads...`,
    );
    for (const deadline = performance.now() + SETTLE_LIMIT_S * 1000; ; await sleep(100)) {
      if ((await movableStatusJobs(services)) === 0) break;
      if (performance.now() > deadline) {
        result.errors.push(`status jobs still waiting ${SETTLE_LIMIT_S} s after the load`);
        break;
      }
    }
    result.cpuAfter = probeCpu();
    console.log(`${database}: ${describeCpu("after the load", result.cpuAfter)}`);

    const state = await panel.ask<ServersPanelState>({ type: "state" });
    const client = state.requests.filter(isClientRequest);
    result.setUpClientRequests = client.filter((request) => request.at < warmStart).length;
    result.warmUpClientRequests = client.filter(
      (request) => request.at >= warmStart && request.at < loadStart,
    ).length;
    result.reads = countReads({
      requests: client,
      watched,
      start: loadStart,
      seconds: LOAD_S,
      periodMs: STATUS_CACHE_MS,
    });
    const identifiers = new Set(state.servers.map((each) => each.identifier));
    const unlinked = watched.filter((identifier) => !identifiers.has(identifier));
    if (unlinked.length)
      result.errors.push(`${unlinked.length} services not linked to a server of the panel`);

    // The load's jobs, before the check below asks again (a stale state queues a read of its own).
    const jobs = await services.db
      .selectFrom("jobs")
      .select(["attempts"])
      .where("type", "=", SERVER_STATUS_JOB)
      .execute();
    result.statusJobs = {
      count: jobs.length,
      attempts: jobs.reduce((sum, job) => sum + Number(job.attempts), 0),
    };

    // What each customer's card shows now: the server running, read from the panel.
    for (const [customer, serviceId] of serviceIds.entries()) {
      const response = await fetch(`${server.url}${STATUS_PATH(serviceId)}`, {
        headers: { ...STATUS_HEADERS, cookie: cookies[customer]![0]! },
        redirect: "manual",
      });
      const text = await response.text();
      let body: { state?: unknown; readAt?: unknown } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        // not JSON: an error below
      }
      if (response.status !== 200 || body.state !== "running" || !body.readAt)
        result.notRunning.push(
          `${serviceId}: ${response.status} ${String(body.state)} ${String(body.readAt)}`,
        );
    }
    result.deadJobs = (
      await services.db
        .selectFrom("jobs")
        .select(["type", "last_error"])
        .where("state", "=", "dead")
        .execute()
    ).map((job) => `${job.type}: ${(job.last_error ?? "").split("\n")[0]}`);
    server.assertRunning();
  } catch (error) {
    result.errors.push(`round failed: ${(error as Error).stack ?? error}`);
  } finally {
    await services?.database.destroy();
    await server?.stop();
    await panel?.stop();
  }
  summarize(result);
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Reporting

const LOAD_PHRASE = `${fmt(VIEWERS)} viewers (${fmt(CUSTOMERS)} customers × ${DEVICES} devices) every ${STATUS_REFRESH_MS / 1000} s for ${LOAD_S} s`;

function routeFigures(round: Round): RouteFigures {
  const load = round.load;
  return load
    ? {
        sent: load.sent,
        p50: load.p50,
        p95: load.p95,
        p99: load.p99,
        failures: load.failures,
        wrongStatus: load.wrongStatus,
        errorKinds: load.errorKinds,
      }
    : { sent: 0, p50: NaN, p95: NaN, p99: NaN, failures: 0, wrongStatus: 0, errorKinds: {} };
}

/** The round's errors that the checks module does not find from the panel's log and the route. */
function otherErrors(round: Round): string[] {
  const errors = [...round.errors];
  const warm = Object.entries(round.warmUpNot404);
  if (warm.length)
    errors.push(
      `warm-up: another customer's service not a 404 (${warm.map(([kind, n]) => `${n} ${kind}`).join(", ")})`,
    );
  if (round.warmUpClientRequests)
    errors.push(`warm-up: ${round.warmUpClientRequests} Client API requests for others' services`);
  if (round.notRunning.length)
    errors.push(
      `${round.notRunning.length} services not read running after the load (${round.notRunning.slice(0, 3).join("; ")})`,
    );
  if (round.deadJobs.length)
    errors.push(`${round.deadJobs.length} dead jobs (${round.deadJobs.slice(0, 3).join("; ")})`);
  return errors;
}

function roundErrors(round: Round): string[] {
  return round.reads
    ? describeErrors(round.reads, routeFigures(round), otherErrors(round))
    : otherErrors(round);
}

function summarize(round: Round) {
  const errors = roundErrors(round);
  const reads = round.reads;
  console.log(
    `${round.database}: ${reads ? `${fmt(reads.total)} panel requests (bound ${fmt(reads.bound)}), at most ${reads.maxInOnePeriod} a server a period, ${round1(reads.minGapMs / 1000)} s apart at the closest` : "no panel figures"}; ${errors.length} error(s)${errors.length ? `: ${errors.join(" | ")}` : ""}`,
  );
}

function judge(round: Round) {
  if (!round.reads) {
    verdicts.push(passes(`${round.database}: the run`, false, roundErrors(round).join("; ")));
    return;
  }
  verdicts.push(
    ...serverVerdicts({
      database: round.database,
      reads: round.reads,
      route: routeFigures(round),
      load: LOAD_PHRASE,
      periodMs: STATUS_CACHE_MS,
      p95LimitMs: STATUS_P95_MS,
      otherErrors: otherErrors(round),
    }),
  );
}

ensureBuild();
const rounds: Round[] = [];
const sqlite = await runRound("sqlite", "file:./.tmp/bench-servers/hostfront.db");
rounds.push(sqlite);
judge(sqlite);
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
    const postgres = await runRound("postgres", cluster.url);
    rounds.push(postgres);
    judge(postgres);
  } finally {
    cluster.stop();
  }
} else {
  console.log("PostgreSQL server binaries not found: skipping the PostgreSQL run.");
  verdicts.push(passes("postgres: run", false, "skipped: no PostgreSQL binaries"));
}

const cpuIndex = (reading: CpuReading | null) => (reading ? String(reading.median) : "n/a");
printTable(
  `Server state benchmark: ${LOAD_PHRASE} (a customer sees only their own server: ${fmt(CUSTOMERS)} servers, ${DEVICES} viewers each), the panel answering in ${ANSWER_DELAY_MS.min}-${ANSWER_DELAY_MS.max} ms, cache ${STATUS_CACHE_MS / 1000} s; ${SERVER_PROCESSES} server processes and the worker, on ${availableParallelism()} cores`,
  rounds.map((r) => {
    const reads = r.reads;
    const load = r.load;
    return {
      database: r.database,
      "CPU index before / after": `${cpuIndex(r.cpuBefore)} / ${cpuIndex(r.cpuAfter)}`,
      "status requests": load ? load.sent : "n/a",
      "p50 / p95 / p99 / max ms": load
        ? `${load.p50} / ${load.p95} / ${load.p99} / ${load.max}`
        : "n/a",
      "panel requests / bound": reads ? `${reads.total} / ${reads.bound}` : "n/a",
      "by period": reads ? reads.perPeriod.join(" + ") : "n/a",
      "most a server a period": reads ? reads.maxInOnePeriod : "n/a",
      "closest two s": reads ? round1(reads.minGapMs / 1000) : "n/a",
      "status jobs / attempts": `${r.statusJobs.count} / ${r.statusJobs.attempts}`,
      "server CPU ms a request":
        r.serverCpuMs === null || !load ? "n/a" : round1(r.serverCpuMs / load.sent),
      errors: roundErrors(r).length,
    };
  }),
);
for (const r of rounds)
  console.log(
    `${r.database}: setting up ${round1(r.setUpS)} s, servers ready ${round1(r.readyS)} s later; Client API requests while setting up ${r.setUpClientRequests} (not judged).`,
  );
reportVerdicts(
  `server state benchmark${QUICK ? ` (--quick: ${CUSTOMERS} customers, ${LOAD_S} s, not a measure)` : ""} (copy these rows into docs/performance.md)`,
  verdicts,
);
process.exit(process.exitCode ?? 0);
