/**
 * npm run soak:crash — crashes in the middle of a burst of orders and admin coin changes, on SQLite and
 * then on PostgreSQL (a throwaway cluster, durable: fsync, synchronous_commit and full_page_writes on, as
 * production runs it). Two kinds of round:
 *
 * - the app server is killed with SIGKILL (the cluster primary and every server process at once),
 *   CRASH_ROUNDS times per database (default 25), and started again on the same database;
 * - on PostgreSQL, the database server is killed with SIGKILL (the postmaster and every backend at once)
 *   while the app keeps running, CRASH_DB_ROUNDS times (default 10), and started again on the same data
 *   directory (crash recovery replays its write-ahead log).
 *
 * The burst goes over HTTP with real sessions and a browser's headers; every request that got a success
 * answer is recorded as acknowledged. After each restart, every request that was not acknowledged (cut
 * off, or refused while the database was down) is sent again with its idempotency key until it is, as a
 * customer pressing submit again would. Then: SQLite's integrity and foreign-key checks pass, every
 * acknowledged order and coin change is there, every key sent made exactly one order with one payment or
 * one coin change (nothing charged twice), every payment has its order, and the ledger equals every
 * balance (the check of npm run check:ledger). Prints a verdict table; exits 1 when any check fails.
 * `--quick` runs one round of each kind. Stops by itself.
 *
 * A process kill proves what the database promised before the kill survives the loss of the process; it
 * does not simulate a power cut, which also drops what the kernel held in its page cache and had not
 * written to the disk (docs/performance.md, "Crash").
 */
import { randomInt, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { parseEnv } from "../../app/config/env.server";
import { createServices, type AppServices } from "../../app/context.server";
import { createDatabase, type DatabaseHandle } from "../../app/db/database.server";
import { listActiveProducts } from "../../app/domain/catalogue/catalogue.server";
import { findLedgerDiscrepancies } from "../../app/domain/coins/coins.server";
import {
  describeDurability,
  durabilitySettings,
  findPostgresBin,
  freePort,
  isDurable,
  startPostgresCluster,
  type PostgresCluster,
} from "../../tests/support/postgres-cluster";
import {
  BENCH_SECRET,
  browserFormHeaders,
  createCustomers,
  ensureBuild,
  none,
  passes,
  printTable,
  QUICK,
  reportVerdicts,
  signInCookie,
  startServer,
  type BenchCustomer,
  type RunningServer,
  type Verdict,
  SERVER_PROCESSES,
} from "../bench/lib";
import { isRedirectTo } from "../bench/paced-load";

const ROUNDS = QUICK ? 1 : Number(process.env.CRASH_ROUNDS ?? 25);
const DB_ROUNDS = QUICK ? 1 : Number(process.env.CRASH_DB_ROUNDS ?? 10);
const CUSTOMERS = 20;
const WORKERS = 16;
/** Acknowledged changes to wait for before the random moment of the kill. */
const MIN_ACKNOWLEDGED = 10;
/** Attempts at each request cut off by a kill, once everything is back (300 ms apart). */
const RESEND_ATTEMPTS = 20;
const REQUEST_TIMEOUT_MS = 30_000;
/** After the database is back, how long its clients' server processes are given to settle. */
const SETTLE_MS = 5_000;

type Victim = "app" | "database";

/** One change the burst asked for: an order or an admin coin change, with its idempotency key. */
interface Change {
  kind: "order" | "coins";
  key: string;
  userId: string;
  /** For coin changes, the reason written on the ledger (unique per change). */
  reason: string;
  body: URLSearchParams;
  acknowledged: boolean;
}

interface RoundResult {
  round: number;
  victim: Victim;
  killedAfterMs: number;
  sent: number;
  orders: number;
  coins: number;
  /** Requests cut off by the kill or refused while the database was down, sent again after the restart. */
  resent: number;
  /** Server errors (5xx) before the kill: a failure. */
  serverErrors: number;
  /** 5xx answers while the database was down (the app cannot do better) and after it was back. */
  outageErrors: number;
  afterRestartErrors: number;
  /** Server processes that exited during the round (replaced by the cluster primary, or all gone). */
  replacedProcesses: number;
  /** Whether the app server stopped altogether when its database went away (and the soak started it again). */
  appStopped: boolean;
  lost: number;
  duplicates: number;
  neverAcknowledged: number;
  problems: string[];
}

/** Sends one change; true when the answer says it was done. */
async function send(server: RunningServer, change: Change, cookie: string) {
  if (change.kind === "order") {
    const response = await fetch(`${server.url}/order`, {
      method: "POST",
      redirect: "manual",
      headers: browserFormHeaders(cookie),
      body: change.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    return {
      status: response.status,
      ok: isRedirectTo(
        response.status,
        response.headers.get("location") ?? undefined,
        "/dashboard/billing",
      ),
    };
  }
  const response = await fetch(`${server.url}/admin/clients.data`, {
    method: "POST",
    headers: browserFormHeaders(cookie),
    body: change.body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return {
    status: response.status,
    ok: response.status === 200 && text.includes("coins.admin.updated"),
  };
}

/**
 * Concurrent workers placing orders (customers, fresh idempotency keys) and changing coins (the admin,
 * through the clients page's action, as its dialog does, with a fresh key each), until told to stop.
 * Success is a 302 to the billing tab for an order (not to /login or elsewhere), the "updated" message
 * for coins.
 */
async function burst(
  server: RunningServer,
  round: number,
  customers: BenchCustomer[],
  adminCookie: string,
  productId: number,
  stopped: () => boolean,
  killStarted: () => boolean,
) {
  const changes: Change[] = [];
  let unanswered = 0;
  let serverErrors = 0;
  let outageErrors = 0;
  const worker = async (w: number) => {
    for (let i = 0; !stopped(); i++) {
      const customer = customers[randomInt(customers.length)]!;
      const key = randomUUID();
      const reason = `crash ${round}.${w}.${i}`;
      const change: Change =
        randomInt(10) < 7
          ? {
              kind: "order",
              key,
              userId: customer.userId,
              reason,
              body: new URLSearchParams({
                productId: String(productId),
                serverName: reason,
                idempotencyKey: key,
              }),
              acknowledged: false,
            }
          : {
              kind: "coins",
              key,
              userId: customer.userId,
              reason,
              body: new URLSearchParams({
                intent: "coins",
                userId: customer.userId,
                // The dialog sends a fresh key with each change (ADR 10); without one it is refused.
                idempotencyKey: key,
                amount: ((randomInt(1, 5000) * (randomInt(3) === 0 ? -1 : 1)) / 100).toFixed(2),
                reason,
              }),
              acknowledged: false,
            };
      changes.push(change);
      try {
        const answer = await send(
          server,
          change,
          change.kind === "order" ? customer.cookie : adminCookie,
        );
        if (answer.status >= 500) {
          if (killStarted()) outageErrors++;
          else serverErrors++;
        }
        change.acknowledged = answer.ok;
      } catch {
        // The server died with the request in flight (or refused it, being down): its outcome is
        // unknown, so it is sent again after the restart. A pause, as a client's retry would take.
        unanswered++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const running = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  return {
    acknowledgedSoFar: () => changes.filter((c) => c.acknowledged).length,
    done: running.then(() => ({ changes, unanswered, serverErrors, outageErrors })),
  };
}

/**
 * Sends every change that was not acknowledged again, with its key, until it is (a customer pressing
 * submit again, an admin the dialog's button). Returns the 5xx seen and the changes never acknowledged.
 */
async function resend(
  server: RunningServer,
  changes: Change[],
  cookieOf: (change: Change) => string,
) {
  let errors = 0;
  const never: Change[] = [];
  for (const change of changes) {
    for (let attempt = 1; attempt <= RESEND_ATTEMPTS && !change.acknowledged; attempt++) {
      try {
        const answer = await send(server, change, cookieOf(change));
        if (answer.status >= 500) errors++;
        change.acknowledged = answer.ok;
      } catch {
        errors++;
      }
      if (!change.acknowledged) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    if (!change.acknowledged) never.push(change);
  }
  return { errors, never };
}

async function inChunks<T, R>(items: T[], query: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  for (let i = 0; i < items.length; i += 500) rows.push(...(await query(items.slice(i, i + 500))));
  return rows;
}

/**
 * Checks the database against what the clients were told. Every change of the round has been
 * acknowledged by now (sent again until it was), so each key must have made exactly one order with one
 * payment, or one coin change: one missing is a lost change, two a change charged twice.
 */
async function checkDatabase(
  database: DatabaseHandle,
  dialect: "sqlite" | "postgres",
  changes: Change[],
) {
  const db = database.db;
  const problems: string[] = [];
  if (dialect === "sqlite") {
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    const verdict = integrity.rows.map((r) => r.integrity_check).join("; ");
    if (verdict !== "ok") problems.push(`integrity_check: ${verdict}`);
    const foreign = await sql`pragma foreign_key_check`.execute(db);
    if (foreign.rows.length) problems.push(`foreign_key_check: ${JSON.stringify(foreign.rows)}`);
  }

  const orders = changes.filter((c) => c.kind === "order" && c.acknowledged);
  const orderRows = await inChunks(orders, (chunk) =>
    db
      .selectFrom("orders")
      .select(["id", "idempotency_key", "user_id"])
      .where(
        "idempotency_key",
        "in",
        chunk.map((c) => c.key),
      )
      .execute(),
  );
  const orderOf = new Map(orderRows.map((row) => [row.idempotency_key, row]));
  const payments = await inChunks(orderRows, (chunk) =>
    db
      .selectFrom("coin_ledger")
      .select("order_id")
      .where("kind", "=", "order_payment")
      .where(
        "order_id",
        "in",
        chunk.map((row) => row.id),
      )
      .execute(),
  );
  const paymentsOf = new Map<number, number>();
  for (const row of payments)
    paymentsOf.set(row.order_id!, (paymentsOf.get(row.order_id!) ?? 0) + 1);
  const lostOrders = orders.filter((o) => orderOf.get(o.key)?.user_id !== o.userId);
  const doubleCharged = orderRows.filter((row) => (paymentsOf.get(row.id) ?? 0) > 1);

  const coins = changes.filter((c) => c.kind === "coins" && c.acknowledged);
  const coinRows = await inChunks(coins, (chunk) =>
    db
      .selectFrom("coin_ledger")
      .select(["idempotency_key", "reason", "user_id"])
      .where("kind", "=", "admin_adjustment")
      .where(
        "reason",
        "in",
        chunk.map((c) => c.reason),
      )
      .execute(),
  );
  const coinRowsOf = new Map<string, number>();
  for (const row of coinRows)
    coinRowsOf.set(row.reason ?? "", (coinRowsOf.get(row.reason ?? "") ?? 0) + 1);
  const lostCoins = coins.filter((c) => !coinRowsOf.has(c.reason));
  const doubleCoins = coins.filter((c) => (coinRowsOf.get(c.reason) ?? 0) > 1);

  if (lostOrders.length)
    problems.push(`${lostOrders.length} acknowledged order(s) missing, e.g. ${lostOrders[0]!.key}`);
  if (lostCoins.length)
    problems.push(
      `${lostCoins.length} acknowledged coin change(s) missing, e.g. "${lostCoins[0]!.reason}"`,
    );
  if (doubleCharged.length) problems.push(`${doubleCharged.length} order(s) paid more than once`);
  if (doubleCoins.length)
    problems.push(`${doubleCoins.length} coin change(s) written more than once`);

  // A transaction is all or nothing: no paid order without its payment, no payment without its order.
  const unpaid = await db
    .selectFrom("orders")
    .leftJoin("coin_ledger", (join) =>
      join
        .onRef("coin_ledger.order_id", "=", "orders.id")
        .on("coin_ledger.kind", "=", "order_payment"),
    )
    .select("orders.id")
    .where("orders.total_cents", ">", 0)
    .where("coin_ledger.id", "is", null)
    .execute();
  if (unpaid.length) problems.push(`${unpaid.length} order(s) without their payment`);
  const orphans = await db
    .selectFrom("coin_ledger")
    .leftJoin("orders", "orders.id", "coin_ledger.order_id")
    .select("coin_ledger.id")
    .where("coin_ledger.kind", "=", "order_payment")
    .where("orders.id", "is", null)
    .execute();
  if (orphans.length) problems.push(`${orphans.length} payment(s) without their order`);

  const negative = await db
    .selectFrom("users")
    .select("id")
    .where("coin_balance_cents", "<", 0)
    .execute();
  if (negative.length) problems.push(`${negative.length} negative balance(s)`);

  const ledger = await findLedgerDiscrepancies(db);
  if (ledger.length) problems.push(`ledger differs from ${ledger.length} balance(s)`);
  return {
    problems,
    lost: lostOrders.length + lostCoins.length,
    duplicates: doubleCharged.length + doubleCoins.length,
  };
}

async function crashDialect(
  label: "sqlite" | "postgres",
  databaseUrl: string,
  cluster?: PostgresCluster,
) {
  const port = await freePort();
  let server = await startServer({ port, databaseUrl });
  // Set-up through the domain (as the benchmark does), then this process lets go of the database: from
  // here on only the server holds it, as in production, so a kill leaves it as a crash would.
  const setup: AppServices = createServices({
    ...parseEnv({ DATABASE_URL: databaseUrl }),
    AUTH_SECRET: BENCH_SECRET,
  });
  const customers = await createCustomers(setup, CUSTOMERS);
  const adminCookie = await signInCookie(setup);
  const product = (await listActiveProducts(setup.db, "samp"))[0]!;
  await setup.database.destroy();
  const cookieOf = (change: Change) =>
    change.kind === "order"
      ? customers.find((c) => c.userId === change.userId)!.cookie
      : adminCookie;

  // The app's rounds first, then the database's (PostgreSQL only: SQLite is a library inside the app's
  // processes, so killing the app is killing the database).
  const plan: Victim[] = [
    ...Array<Victim>(ROUNDS).fill("app"),
    ...Array<Victim>(cluster ? DB_ROUNDS : 0).fill("database"),
  ];
  const results: RoundResult[] = [];
  const started = Date.now();
  try {
    for (const [index, victim] of plan.entries()) {
      const round = index + 1;
      let stopped = false;
      let killStarted = false;
      const load = await burst(
        server,
        round,
        customers,
        adminCookie,
        product.id,
        () => stopped,
        () => killStarted,
      );
      // Mid-burst: once some changes are acknowledged (so there is something to lose), at a random moment.
      const start = Date.now();
      while (load.acknowledgedSoFar() < MIN_ACKNOWLEDGED && Date.now() - start < 60_000)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, randomInt(0, 800)));
      const killAfter = Date.now() - start;
      const workersBefore = server.workerPids();
      killStarted = true;
      if (victim === "app") {
        stopped = true;
        await server.kill();
      } else {
        // The app keeps running and its clients keep sending for a moment: what they are told while the
        // database is gone must not be a success, and is sent again below.
        await cluster!.kill();
        await new Promise((resolve) => setTimeout(resolve, 200));
        stopped = true;
      }
      const outcome = await load.done;

      let appStopped = false;
      let replaced = 0;
      if (victim === "app") server = await startServer({ port, databaseUrl, keepDatabase: true });
      else {
        cluster!.start();
        // The app should ride out its database's restart. Its processes are given a moment; if the app
        // stopped altogether, it is started again (as a service manager would) and the round says so.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const now = server.isRunning() ? server.workerPids() : [];
        replaced = workersBefore.filter((pid) => !now.includes(pid)).length;
        if (!server.isRunning()) {
          appStopped = true;
          server = await startServer({ port, databaseUrl, keepDatabase: true });
        }
      }
      const cutOff = outcome.changes.filter((c) => !c.acknowledged);
      const resent = await resend(server, cutOff, cookieOf);
      server.assertRunning();

      const checker = createDatabase(databaseUrl);
      let checked: Awaited<ReturnType<typeof checkDatabase>>;
      try {
        checked = await checkDatabase(checker, label, outcome.changes);
      } finally {
        await checker.destroy();
      }
      const problems = [...checked.problems];
      if (outcome.serverErrors)
        problems.push(`${outcome.serverErrors} server error(s) (5xx) before the kill`);
      if (resent.never.length)
        problems.push(
          `${resent.never.length} request(s) cut off by the kill never acknowledged after ${RESEND_ATTEMPTS} attempts`,
        );
      const acknowledgedBeforeKill = outcome.changes.length - cutOff.length;
      if (acknowledgedBeforeKill === 0)
        problems.push("nothing was acknowledged before the kill: the round tested nothing");
      const result: RoundResult = {
        round,
        victim,
        killedAfterMs: killAfter,
        sent: outcome.changes.length,
        orders: outcome.changes.filter((c) => c.kind === "order" && !cutOff.includes(c)).length,
        coins: outcome.changes.filter((c) => c.kind === "coins" && !cutOff.includes(c)).length,
        resent: cutOff.length,
        serverErrors: outcome.serverErrors,
        outageErrors: outcome.outageErrors,
        afterRestartErrors: resent.errors,
        replacedProcesses: replaced,
        appStopped,
        lost: checked.lost,
        duplicates: checked.duplicates,
        neverAcknowledged: resent.never.length,
        problems,
      };
      results.push(result);
      console.log(
        `${label} round ${round}/${plan.length} (${victim === "app" ? "app server" : "PostgreSQL"} killed ${killAfter} ms into the burst): ${result.orders} orders and ${result.coins} coin changes acknowledged before the kill, ${result.resent} cut off and sent again${
          victim === "database"
            ? ` (${result.outageErrors} 5xx while the database was down, ${replaced} of ${workersBefore.length} server processes exited${appStopped ? ", then the whole app server: started again" : ""}, ${result.afterRestartErrors} errors on re-sending)`
            : ""
        }; ${problems.length ? `FAILED: ${problems.join("; ")}` : "checks passed"}`,
      );
    }
  } finally {
    await server.stop();
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  return { label, results, seconds, logFile: server.logFile };
}

ensureBuild();
const runs = [await crashDialect("sqlite", "file:./.tmp/soak-crash-sqlite/hostfront.db")];
const verdicts: Verdict[] = [];
if (findPostgresBin()) {
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const settings = await durabilitySettings(cluster.url);
    console.log(`PostgreSQL: ${describeDurability(settings)}`);
    verdicts.push(
      passes(
        "postgres: commits durable (fsync, synchronous_commit, full_page_writes)",
        isDurable(settings),
        describeDurability(settings),
      ),
    );
    runs.push(await crashDialect("postgres", cluster.url, cluster));
  } finally {
    cluster.stop();
  }
} else {
  console.log("PostgreSQL server binaries not found: skipping the PostgreSQL run.");
  verdicts.push(passes("postgres: run", false, "skipped: no PostgreSQL binaries"));
}

const sum = (results: RoundResult[], pick: (r: RoundResult) => number) =>
  results.reduce((n, r) => n + pick(r), 0);
printTable(
  `Crash test (${SERVER_PROCESSES} server processes, ${WORKERS} concurrent clients; per database ${ROUNDS} SIGKILLs of the app server, and on PostgreSQL ${DB_ROUNDS} of the database server, mid-burst)`,
  runs.flatMap((run) =>
    (["app", "database"] as const)
      .map((victim) => ({ victim, results: run.results.filter((r) => r.victim === victim) }))
      .filter(({ results }) => results.length)
      .map(({ victim, results }) => ({
        database: run.label,
        killed: victim === "app" ? "app server" : "PostgreSQL",
        rounds: results.length,
        "orders acknowledged": sum(results, (r) => r.orders),
        "coin changes acknowledged": sum(results, (r) => r.coins),
        "cut off, sent again": sum(results, (r) => r.resent),
        "5xx while down": sum(results, (r) => r.outageErrors),
        "server processes exited": sum(results, (r) => r.replacedProcesses),
        "app stopped": results.filter((r) => r.appStopped).length,
        lost: sum(results, (r) => r.lost),
        "charged twice": sum(results, (r) => r.duplicates),
        "failed rounds": results.filter((r) => r.problems.length).length,
      })),
  ),
);
for (const run of runs) {
  console.log(`${run.label}: ${run.seconds} s; the server's log: ${run.logFile}`);
  for (const victim of ["app", "database"] as const) {
    const results = run.results.filter((r) => r.victim === victim);
    if (!results.length) continue;
    const what = `${run.label}: ${victim === "app" ? "app server" : "PostgreSQL"} killed`;
    const failed = results.filter((r) => r.problems.length).length;
    verdicts.push(
      passes(
        `${what}, rounds passed`,
        failed === 0,
        `${results.length - failed} of ${results.length}`,
      ),
      none(
        `${what}, acknowledged changes missing`,
        sum(results, (r) => r.lost),
      ),
      none(
        `${what}, changes charged twice`,
        sum(results, (r) => r.duplicates),
      ),
      none(
        `${what}, cut-off requests never acknowledged on re-sending`,
        sum(results, (r) => r.neverAcknowledged),
      ),
    );
    if (victim === "database")
      verdicts.push(
        none(
          `${what}, rounds in which the app server stopped (it should ride out the restart)`,
          results.filter((r) => r.appStopped).length,
        ),
      );
  }
  // Both kinds of change must have been put to the test: a run that acknowledged none of one kind (a
  // refused form, say) proved nothing about it, even if each round passed.
  const orders = sum(run.results, (r) => r.orders);
  const coins = sum(run.results, (r) => r.coins);
  verdicts.push(
    passes(
      `${run.label}: orders and coin changes both acknowledged`,
      orders > 0 && coins > 0,
      `${orders} and ${coins}`,
    ),
  );
}
reportVerdicts("crash test (copy these rows into docs/performance.md)", verdicts);
process.exit(process.exitCode ?? 0);
