/**
 * npm run bench:provisioning — does an approved order become a server on the game panel fast enough, and
 * exactly once (ADR 41, docs/provisioning.md)? For each database (SQLite with the app's own
 * pragmas, and PostgreSQL on a durable throwaway cluster when its binaries are there), two rounds, each on
 * a fresh database and a fresh fake panel:
 *
 * 1. The fake Pterodactyl panel (tests/support/fake-pterodactyl.ts) in a process of its own
 *    (fake-panel-host.ts), answering every request after 20 to 40 ms as a real panel takes, with a
 *    location `bench` holding one big node (room and ports for every server of the run). The database
 *    is migrated and seeded (prepareDatabase), the panel connected with the benchmark's secret
 *    (savePanelConnection, the order form's location mapped to `bench`), and the seeded SA-MP and MTA
 *    plans given provisioning blocks (one port; MTA's P, P + 123 and H).
 * 2. Two worker OS processes on that database (provisioning-worker.ts: what the cluster's worker process
 *    runs, from the production build, every production handler and schedule, production's settings but
 *    PANEL_POLL_MS=200; so WORKER_CONCURRENCY 2 and WORKER_BACKOFF_MS 30 s), polling before anything is
 *    approved. The panel is checked once through them (the snapshot the order form's and the approval's
 *    room check read).
 * 3. N customers, registered and given coins through the ledger, each place one order (every fourth an
 *    MTA server, the others SA-MP), then every order is approved (approveOrder: the plan and the create
 *    job in its transaction) one after another, as fast as the benchmark's process can, while the
 *    workers already make the first servers.
 * 4. The run ends when every service is `ready` (or none can move any more, or at the time limit).
 *
 * The second round is the same with the panel failing one request in five (a 500, an answer lost after
 * the change was made, a 429 with Retry-After 1 s, the connection cut, in turn).
 *
 * Measured: each approval's time (p50, p95, max); from the first approval to the last service ready
 * (servers per minute); the panel's requests per server. Errors counted (provisioning-checks.ts): a
 * service not ready, an external id made twice, a service without its server or linked to another, a
 * port given twice, a server breaking its layout (MTA: P, P + 123 and H on one IP, H in SERVER_WEBPORT), an
 * SA-MP server without an RCON password of its own (the plans draw it, as the editor does by default), a
 * recorded address or port that is not the server's, a claim on a port its server does not hold, a dead
 * job, an approval refused; and every request the panel received must be in `panel_calls`. Budgets
 * (verdict table, exit code 1 when one is missed) are written in docs/performance.md with why.
 *
 * `--quick` makes 20 servers a round (its figures measure nothing); BENCH_PANEL_SERVERS changes the count
 * (the budgets are for 200); --sqlite-only skips PostgreSQL.
 * Builds the app first for the workers (`--reuse-build` keeps the benchmark's last build).
 */
import { fork, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { parseEnv } from "../../app/config/env.server";
import { createServices, prepareDatabase, type AppServices } from "../../app/context.server";
import { registerCustomer } from "../../app/domain/accounts/accounts.server";
import { verifiedFlag } from "../../app/domain/accounts/email-verification.server";
import { adjustCoins } from "../../app/domain/coins/coins.server";
import { keepMailUnsent } from "../../app/domain/mail/outbox-mode.server";
import { orderFormSchema } from "../../app/domain/orders/orders.schemas";
import { approveOrder, placeOrder } from "../../app/domain/orders/orders.server";
import {
  requestPanelCheck,
  savePanelConnection,
} from "../../app/domain/provisioning/panel-connection.server";
import type { PterodactylProvisioning } from "../../app/domain/provisioning/provisioning.schemas";
import { DEFAULT_LOCATIONS } from "../../app/domain/settings/settings";
import { updateSettingsSection } from "../../app/domain/settings/settings.server";
import {
  describeDurability,
  durabilitySettings,
  findPostgresBin,
  isDurable,
  startPostgresCluster,
} from "../../tests/support/postgres-cluster";
import type { PanelHostMessage, PanelHostReady, PanelHostState } from "./fake-panel-host";
import {
  atMost,
  BENCH_ADMIN,
  BENCH_BUILD,
  BENCH_LOGS,
  BENCH_SECRET,
  below,
  ensureBuild,
  none,
  passes,
  percentile,
  printTable,
  QUICK,
  reportVerdicts,
  type Verdict,
} from "./lib";
import { checkPanelOutcome, type CheckedService, type PanelOutcome } from "./provisioning-checks";

const SERVERS = QUICK ? 20 : Number(process.env.BENCH_PANEL_SERVERS ?? 200);
const WORKER_PROCESSES = 2;
/** A real panel's answer, per request: PHP, its database and Wings behind it. */
const ANSWER_DELAY_MS = { min: 20, max: 40 };
/** How often a server being installed is looked at: production's 15 s would measure the poll alone. */
const PANEL_POLL_MS = 200;
const FAILURES = { every: 5, kinds: ["500", "lost", "429", "down"] } as const;
/** Generous: past this a round stops and what is not ready counts as errors. */
const ROUND_LIMIT_S = { plain: 300, failing: 1_800 };
/** Single reads of a new server that say "installing" before it is done (the fake's default). */
const INSTALL_READS = 2;

/** Budgets (docs/performance.md, "Provisioning", says why these). */
const APPROVAL_P95_MS = 50;
const READY_BUDGET_S = 60;
const READY_FAILING_BUDGET_S = 900;
const CALLS_PER_SERVER = 16;

const LOCATION = DEFAULT_LOCATIONS[0];
const HTTP_VARIABLE = "SERVER_WEBPORT";
const DRAWN_VARIABLE = "RCON_PASS";
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
    // The editor's default for a remote-admin password: a value of its own for each server.
    environment: { VERSION: "0.3.7" },
    generatedVariables: [DRAWN_VARIABLE],
    slotsVariable: "MAX_PLAYERS",
    httpPortVariable: null,
  };
}

function mtaBlock(egg: { id: number; nestId: number }): PterodactylProvisioning {
  return {
    ...sampBlock(egg),
    dockerImage: "ghcr.io/parkervcp/games:mta",
    startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
    environment: {},
    generatedVariables: [],
    slotsVariable: null,
    allocations: 3,
    portLayout: "mta",
    httpPortVariable: HTTP_VARIABLE,
  };
}

// ---------------------------------------------------------------------------------------------------
// The processes: the panel's and the workers'

/** Resolves with the child's next message of `type`; rejects if it exits first or takes over `ms`. */
function messageOf<T>(child: ChildProcess, type: string, ms = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no "${type}" from a child in ${ms} ms`)), ms);
    const onMessage = (message: { type?: string }) => {
      if (message?.type === type) done(null, message as T);
    };
    const onExit = (code: number | null) =>
      done(new Error(`a child exited (${code}) before "${type}"`));
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

function logTo(name: string): number {
  mkdirSync(BENCH_LOGS, { recursive: true });
  return openSync(path.join(BENCH_LOGS, name), "w");
}

function forkScript(file: string, args: string[], env: NodeJS.ProcessEnv, log: string) {
  const fd = logTo(log);
  const child = fork(path.resolve(import.meta.dirname, file), args, {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", fd, fd, "ipc"],
    env,
  });
  closeSync(fd);
  return child;
}

interface PanelHost {
  ready: PanelHostReady;
  ask<T>(message: PanelHostMessage): Promise<T>;
  stop(): Promise<void>;
}

async function startPanelHost(label: string): Promise<PanelHost> {
  const mta = Math.ceil(SERVERS / 4);
  const child = forkScript(
    "fake-panel-host.ts",
    [
      JSON.stringify({
        answerDelayMs: ANSWER_DELAY_MS,
        installReads: INSTALL_READS,
        singlePorts: SERVERS - mta,
        mtaSets: mta,
      }),
    ],
    process.env,
    `provisioning-${label}-panel.log`,
  );
  const ready = await messageOf<PanelHostReady>(child, "ready");
  return {
    ready,
    ask: (message) => {
      const answer = messageOf<never>(child, message.type);
      child.send(message);
      return answer;
    },
    stop: () => stopChild(child).then(() => undefined),
  };
}

/** SIGTERM, then the exit code (SIGKILL after 30 s: a worker lets its running jobs finish first). */
function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", (code) => {
      clearTimeout(kill);
      resolve(code);
    });
    child.kill("SIGTERM");
  });
}

/** The environment of a production worker: the defaults, but for the poll of installs. */
function workerEnv(databaseUrl: string): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(WORKER|PANEL|SMTP|MAIL)_|^(WORKER|LOG_LEVEL|NODE_ENV)$/.test(key),
    ),
  );
  return {
    ...inherited,
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    BUILD_DIR: BENCH_BUILD,
    WORKER: "on",
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: BENCH_SECRET,
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    // The bench signs its admin in with a password alone (a new install would ask an owner for two-factor).
    FIRST_START_TWO_FACTOR_ROLES: "none",
    PANEL_POLL_MS: String(PANEL_POLL_MS),
  };
}

// ---------------------------------------------------------------------------------------------------
// One round

interface Round {
  database: string;
  failing: boolean;
  servers: number;
  approvalsMs: number[];
  approvalsS: number;
  /** From the first approval to the last service ready (NaN when not all were). */
  readyS: number;
  /** From the last approval to the last service ready. */
  afterLastApprovalS: number;
  /** From the first approval to when no service could move any more (all ready, or failed for good). */
  settledS: number;
  panelRequests: number;
  recordedCalls: number;
  failuresMade: Record<string, number>;
  byRoute: Record<string, number>;
  jobs: { type: string; count: number; attempts: number }[];
  deadJobs: string[];
  refused: string[];
  workersExit: (number | null)[];
  outcome: PanelOutcome | null;
  /** Why the services that are not ready are not, with how many each. */
  notReadyReasons: Record<string, number>;
  errors: string[];
}

async function setUpCustomers(services: AppServices, admin: string, count: number) {
  const customers: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `panel${i}-${Date.now()}@example.com`;
    const created = await registerCustomer(
      services,
      {
        name: `Panel Customer ${i}`,
        email,
        password: "Bench-pass-4471",
        confirmPassword: "Bench-pass-4471",
      },
      { registrationOpen: true },
    );
    if (!created.ok) throw new Error(created.error);
    await services.db
      .updateTable("users")
      .set({ email_verified: verifiedFlag(services.db, true) })
      .where("id", "=", created.userId)
      .execute();
    const credit = await adjustCoins(services.db, {
      userId: created.userId,
      amountCents: 1_000_000,
      reason: "bench",
      actorId: admin,
    });
    if (!credit.ok) throw new Error(credit.error);
    customers.push(created.userId);
  }
  return customers;
}

async function runRound(dialect: string, databaseUrl: string, failing: boolean): Promise<Round> {
  const label = `${dialect}-${failing ? "failing" : "plain"}`;
  if (databaseUrl.startsWith("file:"))
    rmSync(path.dirname(path.resolve(databaseUrl.slice(5))), { recursive: true, force: true });
  const result: Round = {
    database: dialect,
    failing,
    servers: SERVERS,
    approvalsMs: [],
    approvalsS: NaN,
    readyS: NaN,
    afterLastApprovalS: NaN,
    settledS: NaN,
    panelRequests: NaN,
    recordedCalls: NaN,
    failuresMade: {},
    byRoute: {},
    jobs: [],
    deadJobs: [],
    refused: [],
    workersExit: [],
    outcome: null,
    notReadyReasons: {},
    errors: [],
  };
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
  // As a server process without SMTP_URL boots (bootServices): an approval's mail is kept unwritten.
  keepMailUnsent(true);
  let panel: PanelHost | null = null;
  const workers: ChildProcess[] = [];
  try {
    await prepareDatabase(services);
    const admin = (
      await db
        .selectFrom("users")
        .select("id")
        .where("email", "=", BENCH_ADMIN.email)
        .executeTakeFirstOrThrow()
    ).id;
    panel = await startPanelHost(label);
    const { ready } = panel;
    // The fake panel is on 127.0.0.1, which the panel's rules refuse unless this setting is on.
    await updateSettingsSection(db, "gamePanel", { allowLocalNetwork: true });
    const saved = await savePanelConnection(
      db,
      {
        url: ready.url,
        apiKey: ready.apiKey,
        locationMap: { [LOCATION]: [ready.locationId] },
        actorId: admin,
      },
      { secret: BENCH_SECRET },
    );
    if (!saved.ok) throw new Error(`the panel connection was refused: ${saved.error}`);
    const products = await db
      .selectFrom("products")
      .select(["id", "slug"])
      .where("slug", "in", ["samp-starter", "mta-starter"])
      .execute();
    const productOf = (slug: string) => {
      const found = products.find((product) => product.slug === slug);
      if (!found) throw new Error(`no product ${slug} in the seeded catalogue`);
      return Number(found.id);
    };
    const samp = productOf("samp-starter");
    const mta = productOf("mta-starter");
    await db
      .updateTable("products")
      .set({ provisioning: JSON.stringify(sampBlock(ready.eggs.samp)) })
      .where("id", "=", samp)
      .execute();
    await db
      .updateTable("products")
      .set({ provisioning: JSON.stringify(mtaBlock(ready.eggs.mta)) })
      .where("id", "=", mta)
      .execute();

    for (let i = 0; i < WORKER_PROCESSES; i++)
      workers.push(
        forkScript(
          "provisioning-worker.ts",
          [BENCH_BUILD],
          workerEnv(databaseUrl),
          `provisioning-${label}-worker-${i + 1}.log`,
        ),
      );
    await Promise.all(workers.map((worker) => messageOf(worker, "ready")));
    const exitedEarly: string[] = [];
    workers.forEach((worker, i) =>
      worker.once("exit", (code, signal) => exitedEarly.push(`worker ${i + 1}: ${signal ?? code}`)),
    );

    // The snapshot the room checks read, as the hourly refresh keeps it.
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

    const setUpStarted = performance.now();
    const customers = await setUpCustomers(services, admin, SERVERS);
    const orders: { id: number; layout: "single" | "mta" }[] = [];
    for (const [i, customer] of customers.entries()) {
      const layout = i % 4 === 0 ? "mta" : "single";
      const placed = await placeOrder(
        db,
        customer,
        orderFormSchema.parse({
          productId: layout === "mta" ? mta : samp,
          location: LOCATION,
          serverName: `panel bench ${i}`,
          idempotencyKey: `panel-bench-${label}-${i}-${Date.now()}`,
        }),
      );
      if (!placed.ok) throw new Error(`order ${i}: ${placed.error}`);
      orders.push({ id: placed.order.id, layout });
    }
    console.log(
      `${label}: ${fmt(SERVERS)} customers and orders in ${round1((performance.now() - setUpStarted) / 1000)} s; ${fmt(ready.allocations)} allocations on the panel's node`,
    );

    const before = await panel.ask<PanelHostState>({ type: "state" });
    const callsBefore = Number(
      (
        await db
          .selectFrom("panel_calls")
          .select((eb) => eb.fn.max("id").as("m"))
          .executeTakeFirst()
      )?.m ?? 0,
    );
    if (failing)
      await panel.ask({ type: "failEvery", n: FAILURES.every, kinds: [...FAILURES.kinds] });

    const started = performance.now();
    const serviceIds: number[] = [];
    const layoutOf = new Map<number, "single" | "mta">();
    for (const order of orders) {
      const t = performance.now();
      try {
        const approved = await approveOrder(db, { orderId: order.id, actorId: admin });
        result.approvalsMs.push(performance.now() - t);
        if (!approved.ok) {
          result.refused.push(`order ${order.id}: ${approved.error}`);
          continue;
        }
        serviceIds.push(approved.order.hostingServiceId!);
        layoutOf.set(approved.order.hostingServiceId!, order.layout);
      } catch (error) {
        result.approvalsMs.push(performance.now() - t);
        result.refused.push(`order ${order.id} threw: ${(error as Error).message}`);
      }
    }
    const approvedAt = performance.now();
    result.approvalsS = (approvedAt - started) / 1000;
    console.log(
      `${label}: ${fmt(serviceIds.length)} approvals in ${round1(result.approvalsS)} s; waiting for the servers...`,
    );

    const limitS = failing ? ROUND_LIMIT_S.failing : ROUND_LIMIT_S.plain;
    const deadline = new Date(
      Date.now() - (performance.now() - started) + limitS * 1000,
    ).toISOString();
    let lastPrint = performance.now();
    for (;;) {
      const states = await db
        .selectFrom("hosting_services")
        .select(["panel_state"])
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("id", "in", serviceIds.length ? serviceIds : [0])
        .groupBy("panel_state")
        .execute();
      const count = (state: string) =>
        Number(states.find((row) => row.panel_state === state)?.n ?? 0);
      const now = performance.now();
      result.settledS = (now - started) / 1000;
      if (count("ready") === serviceIds.length) {
        result.readyS = (now - started) / 1000;
        result.afterLastApprovalS = (now - approvedAt) / 1000;
        break;
      }
      // Nothing can be ready before the time limit: no panel job is running or due by then (a service
      // failed for good has none; one in the worker's backoff may have its next attempt past it).
      const movable = await db
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("type", "in", ["provisioning.create", "provisioning.await-install"])
        .where((eb) =>
          eb.or([
            eb("state", "=", "running"),
            eb.and([eb("state", "in", ["queued", "failed"]), eb("run_at", "<=", deadline)]),
          ]),
        )
        .executeTakeFirstOrThrow();
      if (Number(movable.n) === 0) {
        if (count("ready") + count("failed") < serviceIds.length)
          result.errors.push(
            `stopped at ${round1((now - started) / 1000)} s: the next attempts are after the ${limitS} s limit`,
          );
        break;
      }
      if ((now - started) / 1000 > limitS) {
        result.errors.push(`not all ready within ${limitS} s`);
        break;
      }
      if (exitedEarly.length) break;
      if (now - lastPrint > 15_000) {
        lastPrint = now;
        console.log(
          `${label}: ${round1((now - started) / 1000)} s, ${states.map((row) => `${row.panel_state} ${row.n}`).join(", ")}`,
        );
      }
      await sleep(100);
    }
    if (exitedEarly.length) result.errors.push(`worker exited early (${exitedEarly.join("; ")})`);
    if (failing) await panel.ask({ type: "clearFailures" });

    const after = await panel.ask<PanelHostState>({ type: "state" });
    result.panelRequests = after.requests - before.requests;
    result.failuresMade = after.failures;
    for (const [route, count] of Object.entries(after.byRoute))
      result.byRoute[route] = count - (before.byRoute[route] ?? 0);
    result.recordedCalls = Number(
      (
        await db
          .selectFrom("panel_calls")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("id", ">", callsBefore)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const rows = await db
      .selectFrom("hosting_services")
      .select([
        "id",
        "panel_state",
        "panel_server_id",
        "panel_address",
        "panel_ports",
        "panel_error",
      ])
      .where("id", "in", serviceIds.length ? serviceIds : [0])
      .execute();
    const checked: CheckedService[] = rows.map((row) => ({
      id: Number(row.id),
      layout: layoutOf.get(Number(row.id)) ?? "single",
      panelState: row.panel_state,
      panelServerId: row.panel_server_id === null ? null : Number(row.panel_server_id),
      address: row.panel_address,
      ports: row.panel_ports ? (JSON.parse(row.panel_ports) as CheckedService["ports"]) : null,
      drawn: layoutOf.get(Number(row.id)) === "mta" ? [] : [DRAWN_VARIABLE],
    }));
    for (const row of rows.filter((each) => each.panel_state !== "ready")) {
      // The reason without what differs from one service to the next (a page, an id).
      const reason = `${row.panel_state}: ${(row.panel_error ?? "no error")
        .replace(/\?.*$/, "")
        .replace(/\d+/g, "N")
        .slice(0, 120)}`;
      result.notReadyReasons[reason] = (result.notReadyReasons[reason] ?? 0) + 1;
    }
    const claims = await db
      .selectFrom("panel_port_claims")
      .select(["allocation_id", "hosting_service_id"])
      .execute();
    result.outcome = checkPanelOutcome({
      services: checked,
      servers: after.servers,
      claims: claims.map((claim) => ({
        allocationId: Number(claim.allocation_id),
        serviceId: Number(claim.hosting_service_id),
      })),
      httpVariable: HTTP_VARIABLE,
    });
    const jobs = await db
      .selectFrom("jobs")
      .select(["type", "state", "attempts", "last_error"])
      .where("type", "like", "provisioning.%")
      .execute();
    const types = [...new Set(jobs.map((job) => job.type))].sort();
    result.jobs = types.map((type) => {
      const ofType = jobs.filter((job) => job.type === type);
      return {
        type,
        count: ofType.length,
        attempts: ofType.reduce((sum, job) => sum + Number(job.attempts), 0),
      };
    });
    result.deadJobs = (
      await db
        .selectFrom("jobs")
        .select(["type", "last_error"])
        .where("state", "=", "dead")
        .execute()
    ).map((job) => `${job.type}: ${(job.last_error ?? "").split("\n")[0]}`);
  } catch (error) {
    result.errors.push(`round failed: ${(error as Error).stack ?? error}`);
  } finally {
    result.workersExit = await Promise.all(workers.map(stopChild));
    await panel?.stop();
    await services.database.destroy();
  }
  summarize(result, label);
  return result;
}

function outcomeErrors(round: Round): string[] {
  const errors = [...round.errors];
  const o = round.outcome;
  if (o) {
    const list = (what: string, items: readonly (number | string)[]) => {
      if (items.length)
        errors.push(
          `${items.length} ${what} (${items.slice(0, 5).join(", ")}${items.length > 5 ? "…" : ""})`,
        );
    };
    list("not ready", o.notReady);
    if (o.notReady.length)
      errors[errors.length - 1] += `, why: ${Object.entries(round.notReadyReasons)
        .sort((a, b) => b[1] - a[1])
        .map(([reason, n]) => `${n} ${reason}`)
        .join("; ")}`;
    list("made twice", o.madeTwice);
    list("without their server", o.missing);
    list("linked to another server", o.wrongServer);
    list("ports given twice", o.portsTwice);
    list("breaking their layout (MTA: P, P + 123, H on one IP)", o.layoutBroken);
    list("with a wrong address or ports recorded", o.recordedWrong);
    list("without a drawn RCON password of their own", o.secretsShared);
    if (o.strayClaims) errors.push(`${o.strayClaims} claims on ports their server does not hold`);
  }
  if (round.deadJobs.length)
    errors.push(`${round.deadJobs.length} dead jobs (${round.deadJobs.slice(0, 3).join("; ")})`);
  if (round.refused.length)
    errors.push(
      `${round.refused.length} approvals refused (${round.refused.slice(0, 3).join("; ")})`,
    );
  return errors;
}

function summarize(round: Round, label: string) {
  const sorted = [...round.approvalsMs].sort((a, b) => a - b);
  const errors = outcomeErrors(round);
  console.log(
    `${label}: approvals p50 ${round1(percentile(sorted, 0.5))}, p95 ${round1(percentile(sorted, 0.95))} ms; all ready after ${round1(round.readyS)} s (settled after ${round1(round.settledS)} s); ${fmt(round.panelRequests)} panel requests (${round1(round.panelRequests / round.servers)} a server), ${fmt(round.recordedCalls)} recorded; ${errors.length} error(s)${errors.length ? `: ${errors.join(" | ")}` : ""}`,
  );
}

function judge(plain: Round, failing: Round) {
  const db = plain.database;
  const p95 = (round: Round) =>
    percentile(
      [...round.approvalsMs].sort((a, b) => a - b),
      0.95,
    );
  const failureTag = `1 request in ${FAILURES.every} failing`;
  verdicts.push(
    below(
      `${db}: approval p95, ${fmt(SERVERS)} approvals, workers running`,
      p95(plain),
      APPROVAL_P95_MS,
      " ms",
    ),
    below(
      `${db}: ${fmt(SERVERS)} servers ready, from the first approval`,
      plain.readyS,
      READY_BUDGET_S,
      " s",
    ),
    atMost(
      `${db}: panel requests per server`,
      Math.round((plain.panelRequests / SERVERS) * 100) / 100,
      CALLS_PER_SERVER,
    ),
    none(`${db}: errors`, outcomeErrors(plain).length, outcomeErrors(plain).join("; ")),
    below(`${db}, ${failureTag}: approval p95`, p95(failing), APPROVAL_P95_MS, " ms"),
    below(
      `${db}, ${failureTag}: ${fmt(SERVERS)} servers ready, from the first approval`,
      failing.readyS,
      READY_FAILING_BUDGET_S,
      " s",
    ),
    none(
      `${db}, ${failureTag}: errors`,
      outcomeErrors(failing).length,
      outcomeErrors(failing).join("; "),
    ),
    passes(
      `${db}: every panel request recorded in panel_calls (both rounds)`,
      plain.panelRequests === plain.recordedCalls &&
        failing.panelRequests === failing.recordedCalls,
      `${fmt(plain.recordedCalls)} of ${fmt(plain.panelRequests)}, ${fmt(failing.recordedCalls)} of ${fmt(failing.panelRequests)}`,
    ),
    passes(
      `${db}: worker processes stopped cleanly on SIGTERM (exit 0)`,
      [...plain.workersExit, ...failing.workersExit].every((code) => code === 0),
      [...plain.workersExit, ...failing.workersExit].join(", "),
    ),
  );
}

async function benchDialect(dialect: string, urlFor: (round: "plain" | "failing") => string) {
  const plain = await runRound(dialect, urlFor("plain"), false);
  const failing = await runRound(dialect, urlFor("failing"), true);
  judge(plain, failing);
  return [plain, failing];
}

ensureBuild();
const rounds: Round[] = [];
rounds.push(
  ...(await benchDialect(
    "sqlite",
    (round) => `file:./.tmp/bench-provisioning-${round}/hostfront.db`,
  )),
);
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
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    for (const round of ["plain", "failing"]) await client.query(`create database panel_${round}`);
    await client.end();
    rounds.push(
      ...(await benchDialect("postgres", (round) =>
        cluster.url.replace(/\/postgres$/, `/panel_${round}`),
      )),
    );
  } finally {
    cluster.stop();
  }
} else {
  console.log("PostgreSQL server binaries not found: skipping the PostgreSQL run.");
  verdicts.push(passes("postgres: run", false, "skipped: no PostgreSQL binaries"));
}

printTable(
  `Provisioning benchmark: ${fmt(SERVERS)} approvals then the servers made by ${WORKER_PROCESSES} worker processes, the panel answering in ${ANSWER_DELAY_MS.min}-${ANSWER_DELAY_MS.max} ms, PANEL_POLL_MS=${PANEL_POLL_MS}`,
  rounds.map((r) => {
    const sorted = [...r.approvalsMs].sort((a, b) => a - b);
    const failures = Object.entries(r.failuresMade);
    return {
      database: r.database,
      panel: r.failing
        ? `1 in ${FAILURES.every} failing (${failures.map(([kind, n]) => `${kind} ${n}`).join(", ")})`
        : "answering",
      "approval p50 / p95 / max ms": `${round1(percentile(sorted, 0.5))} / ${round1(percentile(sorted, 0.95))} / ${round1(sorted.at(-1) ?? NaN)}`,
      "approvals s": round1(r.approvalsS),
      "ready s": round1(r.readyS),
      "after the last approval s": round1(r.afterLastApprovalS),
      "settled s": round1(r.settledS),
      "servers/min": round1(SERVERS / (r.readyS / 60)),
      "requests/server": round1(r.panelRequests / SERVERS),
      "job attempts": r.jobs
        .filter((job) => job.type !== "provisioning.check")
        .map((job) => `${job.type.replace("provisioning.", "")} ${job.count}/${job.attempts}`)
        .join(", "),
      errors: outcomeErrors(r).length,
    };
  }),
);
printTable(
  "Panel requests by route (per server)",
  Object.keys(Object.assign({}, ...rounds.map((r) => r.byRoute)) as Record<string, number>)
    .sort()
    .map((route) => ({
      route,
      ...Object.fromEntries(
        rounds.map((r) => [
          `${r.database}${r.failing ? " failing" : ""}`,
          round1((r.byRoute[route] ?? 0) / SERVERS),
        ]),
      ),
    })),
);
reportVerdicts(
  `provisioning benchmark${QUICK ? " (--quick: 20 servers, not a measure)" : ""} (copy these rows into docs/performance.md)`,
  verdicts,
);
