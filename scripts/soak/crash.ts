/**
 * npm run soak:crash — the production server is killed with SIGKILL in the middle of a burst of orders and
 * admin coin changes, CRASH_ROUNDS times (default 25), on SQLite and then on PostgreSQL (a throwaway
 * cluster). The burst goes over HTTP with real sessions; every request that got a success answer is
 * recorded. After each restart on the same database: SQLite's integrity and foreign-key checks pass,
 * every acknowledged order and coin change is there, every order's payment is on the ledger (and every
 * payment has its order), and the ledger equals every balance (the check of npm run check:ledger). Exits
 * 1 when any check fails. Stops by itself.
 */
import { randomInt, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { parseEnv } from "../../app/config/env.server";
import { createServices, type AppServices } from "../../app/context.server";
import { createDatabase, type DatabaseHandle } from "../../app/db/database.server";
import { listActiveProducts } from "../../app/domain/catalogue/catalogue.server";
import { findLedgerDiscrepancies } from "../../app/domain/coins/coins.server";
import {
  findPostgresBin,
  freePort,
  startPostgresCluster,
} from "../../tests/support/postgres-cluster";
import {
  BENCH_SECRET,
  createCustomers,
  ensureBuild,
  printTable,
  signInCookie,
  startServer,
  type BenchCustomer,
  type RunningServer,
  SERVER_PROCESSES,
} from "../bench/lib";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 25);
const CUSTOMERS = 20;
const WORKERS = 16;
/** Acknowledged changes to wait for before the random moment of the kill. */
const MIN_ACKNOWLEDGED = 10;

interface Acknowledged {
  orders: { key: string; userId: string }[];
  coins: { reason: string; userId: string }[];
}

interface RoundResult {
  round: number;
  killedAfterMs: number;
  sent: number;
  orders: number;
  coins: number;
  unanswered: number;
  serverErrors: number;
  problems: string[];
}

/** What a browser sends with a form on our own site (the server refuses cross-site posts). */
function formHeaders(cookie: string): Record<string, string> {
  return {
    cookie,
    "content-type": "application/x-www-form-urlencoded",
    "sec-fetch-site": "same-origin",
  };
}

/**
 * Concurrent workers placing orders (customers, fresh idempotency keys) and changing coins (the admin,
 * through the clients page's action, as its dialog does), until the server stops answering. Only answers
 * that say it worked are recorded: a 302 to the billing tab for an order, the "updated" message for coins.
 */
async function burst(
  server: RunningServer,
  round: number,
  customers: BenchCustomer[],
  adminCookie: string,
  productId: number,
  killed: () => boolean,
) {
  const acknowledged: Acknowledged = { orders: [], coins: [] };
  let sent = 0;
  let unanswered = 0;
  let serverErrors = 0;
  const worker = async (w: number) => {
    for (let i = 0; !killed(); i++) {
      const customer = customers[randomInt(customers.length)]!;
      sent++;
      try {
        if (randomInt(10) < 7) {
          const key = `crash-${round}-${w}-${i}-${randomUUID()}`;
          const response = await fetch(`${server.url}/order`, {
            method: "POST",
            redirect: "manual",
            headers: formHeaders(customer.cookie),
            body: new URLSearchParams({
              productId: String(productId),
              serverName: `crash ${round}.${w}.${i}`,
              idempotencyKey: key,
            }),
          });
          await response.arrayBuffer();
          if (response.status >= 500) serverErrors++;
          if (
            response.status === 302 &&
            response.headers.get("location") === "/dashboard?tab=billing"
          )
            acknowledged.orders.push({ key, userId: customer.userId });
        } else {
          const reason = `crash ${round}.${w}.${i}`;
          const amount = (randomInt(1, 5000) * (randomInt(3) === 0 ? -1 : 1)) / 100;
          const response = await fetch(`${server.url}/admin/clients.data`, {
            method: "POST",
            headers: formHeaders(adminCookie),
            body: new URLSearchParams({
              intent: "coins",
              userId: customer.userId,
              // The dialog sends a fresh key with each change (ADR 10); without one it is refused.
              idempotencyKey: randomUUID(),
              amount: amount.toFixed(2),
              reason,
            }),
          });
          const text = await response.text();
          if (response.status >= 500) serverErrors++;
          if (response.status === 200 && text.includes("coins.admin.updated"))
            acknowledged.coins.push({ reason, userId: customer.userId });
        }
      } catch {
        // The server died with the request in flight: its outcome is unknown, and it was never
        // acknowledged, so the checks do not count on it either way.
        unanswered++;
      }
    }
  };
  const running = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  return {
    acknowledgedSoFar: () => acknowledged.orders.length + acknowledged.coins.length,
    done: running.then(() => ({ acknowledged, sent, unanswered, serverErrors })),
  };
}

async function checkDatabase(
  database: DatabaseHandle,
  dialect: "sqlite" | "postgres",
  acknowledged: Acknowledged,
): Promise<string[]> {
  const db = database.db;
  const problems: string[] = [];
  if (dialect === "sqlite") {
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    const verdict = integrity.rows.map((r) => r.integrity_check).join("; ");
    if (verdict !== "ok") problems.push(`integrity_check: ${verdict}`);
    const foreign = await sql`pragma foreign_key_check`.execute(db);
    if (foreign.rows.length) problems.push(`foreign_key_check: ${JSON.stringify(foreign.rows)}`);
  }

  const keys = acknowledged.orders.map((o) => o.key);
  const found = new Map<string, string>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db
      .selectFrom("orders")
      .select(["idempotency_key", "user_id"])
      .where("idempotency_key", "in", keys.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.idempotency_key, row.user_id);
  }
  const lostOrders = acknowledged.orders.filter((o) => found.get(o.key) !== o.userId);
  if (lostOrders.length)
    problems.push(`${lostOrders.length} acknowledged order(s) missing, e.g. ${lostOrders[0]!.key}`);

  const reasons = acknowledged.coins.map((c) => c.reason);
  const ledgerReasons = new Set<string>();
  for (let i = 0; i < reasons.length; i += 500) {
    const rows = await db
      .selectFrom("coin_ledger")
      .select("reason")
      .where("kind", "=", "admin_adjustment")
      .where("reason", "in", reasons.slice(i, i + 500))
      .execute();
    for (const row of rows) ledgerReasons.add(row.reason ?? "");
  }
  const lostCoins = reasons.filter((r) => !ledgerReasons.has(r));
  if (lostCoins.length)
    problems.push(
      `${lostCoins.length} acknowledged coin change(s) missing, e.g. "${lostCoins[0]}"`,
    );

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
  return problems;
}

async function crashDialect(label: "sqlite" | "postgres", databaseUrl: string) {
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

  const results: RoundResult[] = [];
  const started = Date.now();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      let killed = false;
      const load = await burst(server, round, customers, adminCookie, product.id, () => killed);
      // Mid-burst: once some changes are acknowledged (so there is something to lose), at a random moment.
      const start = Date.now();
      while (load.acknowledgedSoFar() < MIN_ACKNOWLEDGED && Date.now() - start < 60_000)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, randomInt(0, 800)));
      const killAfter = Date.now() - start;
      killed = true;
      await server.kill();
      const outcome = await load.done;

      server = await startServer({ port, databaseUrl, keepDatabase: true });
      const checker = createDatabase(databaseUrl);
      let problems: string[];
      try {
        problems = await checkDatabase(checker, label, outcome.acknowledged);
      } finally {
        await checker.destroy();
      }
      if (outcome.serverErrors) problems.push(`${outcome.serverErrors} server error(s) (5xx)`);
      if (outcome.acknowledged.orders.length + outcome.acknowledged.coins.length === 0)
        problems.push("nothing was acknowledged before the kill: the round tested nothing");
      const result: RoundResult = {
        round,
        killedAfterMs: killAfter,
        sent: outcome.sent,
        orders: outcome.acknowledged.orders.length,
        coins: outcome.acknowledged.coins.length,
        unanswered: outcome.unanswered,
        serverErrors: outcome.serverErrors,
        problems,
      };
      results.push(result);
      console.log(
        `${label} round ${round}/${ROUNDS}: killed ${killAfter} ms into the burst; ${result.orders} orders and ${result.coins} coin changes acknowledged, ${result.unanswered} cut off; ${problems.length ? `FAILED: ${problems.join("; ")}` : "checks passed"}`,
      );
    }
  } finally {
    await server.stop();
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  return { label, results, seconds };
}

ensureBuild();
const runs = [await crashDialect("sqlite", "file:./.tmp/soak-crash-sqlite/hostfront.db")];
if (findPostgresBin()) {
  const cluster = await startPostgresCluster();
  try {
    runs.push(await crashDialect("postgres", cluster.url));
  } finally {
    cluster.stop();
  }
} else {
  console.log("PostgreSQL server binaries not found: skipping the PostgreSQL run.");
}

printTable(
  `Crash test (${SERVER_PROCESSES} server processes, ${ROUNDS} SIGKILLs mid-burst per database, ${WORKERS} concurrent clients)`,
  runs.map((run) => ({
    database: run.label,
    rounds: run.results.length,
    seconds: run.seconds,
    "orders acknowledged": run.results.reduce((n, r) => n + r.orders, 0),
    "coin changes acknowledged": run.results.reduce((n, r) => n + r.coins, 0),
    "requests cut off": run.results.reduce((n, r) => n + r.unanswered, 0),
    "failed rounds": run.results.filter((r) => r.problems.length).length,
  })),
);
// Both kinds of change must have been put to the test: a run that acknowledged none of one kind (a
// refused form, say) proved nothing about it, even if each round passed.
const untested = runs.filter(
  (run) =>
    run.results.reduce((n, r) => n + r.orders, 0) === 0 ||
    run.results.reduce((n, r) => n + r.coins, 0) === 0,
);
for (const run of untested)
  console.log(`${run.label}: no order or no coin change was acknowledged in any round.`);
const failed =
  untested.length > 0 || runs.some((run) => run.results.some((r) => r.problems.length));
console.log(
  failed
    ? "\nCrash test FAILED: see the rounds above."
    : "\nCrash test passed: every restart found an intact database with every acknowledged change.",
);
process.exit(failed ? 1 : 0);
