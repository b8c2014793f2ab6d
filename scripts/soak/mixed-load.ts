/**
 * npm run soak:load — mixed load against a production build, on SQLite and then on PostgreSQL (a throwaway
 * cluster): SOAK_SECONDS (default 60) at SOAK_RATE requests/s (default 200), 80% reads (public pages and
 * signed-in customers' dashboards) and 20% order placements by many customers with enough coins, evenly
 * spaced and timed from when each request was due (../bench/paced-load.ts). Prints p50/p95/p99 and the
 * errors, then checks that every acknowledged order is in the database and that the ledger equals every
 * balance. Production's defaults: LOG_LEVEL=info (into a file), a browser's headers (compressed answers),
 * PostgreSQL durable (fsync, synchronous_commit, full_page_writes on; printed). A timed-out or failed
 * request counts at the timeout in the percentiles, and an order is placed only when it is sent to the
 * billing tab. Prints a verdict table and exits 1 when the p99 budget is missed, on any error, a lost
 * acknowledged order or a broken ledger. `--quick`: 5 s after a short warm-up. Stops by itself.
 */
import { parseEnv } from "../../app/config/env.server";
import { createServices } from "../../app/context.server";
import { listActiveProducts } from "../../app/domain/catalogue/catalogue.server";
import { findLedgerDiscrepancies } from "../../app/domain/coins/coins.server";
import {
  describeDurability,
  durabilitySettings,
  findPostgresBin,
  freePort,
  isDurable,
  startPostgresCluster,
} from "../../tests/support/postgres-cluster";
import {
  BENCH_SECRET,
  below,
  BROWSER_HEADERS,
  browserFormHeaders,
  createCustomers,
  ensureBuild,
  none,
  passes,
  printTable,
  QUICK,
  reportVerdicts,
  startServer,
  SERVER_PROCESSES,
  warmUp,
  type Verdict,
} from "../bench/lib";
import { describeErrors, isRedirectTo, runPaced, type PacedRequest } from "../bench/paced-load";

const SECONDS = QUICK ? 5 : Number(process.env.SOAK_SECONDS ?? 60);
const RATE = Number(process.env.SOAK_RATE ?? 200);
const CUSTOMERS = QUICK ? 20 : 100;
const P99_BUDGET_MS = 250;
const WARM_UP = QUICK ? 500 : 5_000; // requests, a fifth of them orders
const ORDER_DONE = "/dashboard/billing";

const PUBLIC_PAGES = ["/", "/services/samp", "/services/vps", "/game-hosting", "/about", "/login"];
const DASHBOARD_TABS = ["/dashboard", "/dashboard/services", "/dashboard/billing"];

const verdicts: Verdict[] = [];

interface Outcome {
  database: string;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  "orders acknowledged": number;
  "acknowledged but missing": number;
  ledger: string;
  "p99 budget": string;
}

async function soakDialect(label: string, databaseUrl: string): Promise<Outcome> {
  const port = await freePort();
  const server = await startServer({ port, databaseUrl });
  console.log(`${label}: the server logs at info into ${server.logFile}`);
  const services = createServices({
    ...parseEnv({ DATABASE_URL: databaseUrl }),
    AUTH_SECRET: BENCH_SECRET,
  });
  try {
    const customers = await createCustomers(services, CUSTOMERS);
    const product = (await listActiveProducts(services.db, "samp"))[0]!;
    // Warm-up, the same mix: the first requests compile code paths and fill caches, and orders take some
    // 3,000 to settle (bench/server.ts); they are not what we measure.
    const paths = [...PUBLIC_PAGES, ...DASHBOARD_TABS];
    await warmUp(WARM_UP, (i) => {
      const cookie = customers[i % customers.length]!.cookie;
      if (i % 5 === 4)
        return fetch(`${server.url}/order`, {
          method: "POST",
          redirect: "manual",
          headers: browserFormHeaders(cookie),
          body: new URLSearchParams({
            productId: String(product.id),
            serverName: `warm ${i}`,
            idempotencyKey: `warm-${label}-${i}-${Date.now()}`,
          }).toString(),
        }).then((r) => r.text());
      const path = paths[i % paths.length]!;
      const headers: Record<string, string> = DASHBOARD_TABS.includes(path)
        ? { ...BROWSER_HEADERS, cookie }
        : { ...BROWSER_HEADERS };
      return fetch(`${server.url}${path}`, { headers }).then((r) => r.text());
    });

    const acknowledged: string[] = [];
    const orderKeys = new Map<number, string>();
    const wrongAnswers = new Map<string, number>();
    const wrong = (what: string) => wrongAnswers.set(what, (wrongAnswers.get(what) ?? 0) + 1);
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    // Four reads, then an order (80% / 20%); half the reads are public pages, half a customer's dashboard.
    const isOrder = (i: number) => i % 5 === 4;
    const result = await runPaced({
      origin: server.url,
      rate: RATE,
      seconds: SECONDS,
      connections: 64,
      request: (i): PacedRequest => {
        if (isOrder(i)) {
          const key = `soak-${label}-${i}-${Date.now()}`;
          orderKeys.set(i, key);
          return {
            method: "POST",
            path: "/order",
            headers: browserFormHeaders(customers[i % customers.length]!.cookie),
            body: new URLSearchParams({
              productId: String(product.id),
              serverName: `soak ${i}`,
              idempotencyKey: key,
            }).toString(),
          };
        }
        if (Math.random() < 0.5)
          return { path: pick(PUBLIC_PAGES), headers: { ...BROWSER_HEADERS } };
        return {
          path: pick(DASHBOARD_TABS),
          headers: { ...BROWSER_HEADERS, cookie: pick(customers).cookie },
        };
      },
      onAnswer: (i, status, _ms, location) => {
        if (isOrder(i)) {
          // Placed means sent to the billing tab; a redirect to /login (a lost session) is not.
          const placed = isRedirectTo(status, location, ORDER_DONE);
          if (placed) acknowledged.push(orderKeys.get(i)!);
          else wrong(`order answered ${status}${location ? ` to ${location}` : ""}`);
          return placed;
        }
        if (status !== 200) wrong(`read answered ${status}`);
        return status === 200;
      },
    });

    // Every acknowledged order is in the database (orders cut off when the run ends may be there too).
    const found = new Set<string>();
    for (let i = 0; i < acknowledged.length; i += 500) {
      const rows = await services.db
        .selectFrom("orders")
        .select("idempotency_key")
        .where("idempotency_key", "in", acknowledged.slice(i, i + 500))
        .execute();
      for (const row of rows) found.add(row.idempotency_key);
    }
    const lost = acknowledged.filter((key) => !found.has(key)).length;
    const problems = await findLedgerDiscrepancies(services.db);
    const errors = result.failures + result.wrongStatus;
    if (errors)
      console.log(
        `${label}: ${result.failures} connection errors or timeouts (${
          describeErrors(result.errorKinds, (kind) => !kind.startsWith("status ")) || "none"
        }), ${[...wrongAnswers].map(([what, count]) => `${count} ${what}`).join(", ") || "no wrong answers"}`,
      );
    verdicts.push(
      below(`${label}: p99 at ${RATE}/s (mixed load)`, result.p99, P99_BUDGET_MS, " ms"),
      none(
        `${label}: errors`,
        errors,
        [
          describeErrors(result.errorKinds, (kind) => !kind.startsWith("status ")),
          ...[...wrongAnswers].map(([what, count]) => `${count} ${what}`),
        ]
          .filter(Boolean)
          .join(", "),
      ),
      none(`${label}: acknowledged orders missing (of ${acknowledged.length})`, lost),
      passes(`${label}: ledger equals every balance`, problems.length === 0),
    );
    return {
      database: label,
      requests: result.answered,
      rps: result.rps,
      p50: result.p50,
      p95: result.p95,
      p99: result.p99,
      errors,
      "orders acknowledged": acknowledged.length,
      "acknowledged but missing": lost,
      ledger: problems.length ? `FAILED for ${problems.length} user(s)` : "passed",
      "p99 budget": result.p99 < P99_BUDGET_MS ? "met" : "NOT met",
    };
  } finally {
    await services.database.destroy();
    await server.stop();
  }
}

ensureBuild();
const outcomes = [await soakDialect("sqlite", "file:./.tmp/soak-load-sqlite/hostfront.db")];
if (findPostgresBin()) {
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const settings = await durabilitySettings(cluster.url);
    console.log(`PostgreSQL: ${describeDurability(settings)}`);
    verdicts.push(
      passes("postgres: commits durable", isDurable(settings), describeDurability(settings)),
    );
    outcomes.push(await soakDialect("postgres", cluster.url));
  } finally {
    cluster.stop();
  }
} else {
  console.log("PostgreSQL server binaries not found: skipping the PostgreSQL run.");
  verdicts.push(passes("postgres: run", false, "skipped: no PostgreSQL binaries"));
}
printTable(
  `Mixed load (${SERVER_PROCESSES} server processes, ${SECONDS} s at ${RATE} evenly spaced requests/s: 80% reads, 20% orders; latency in ms from when each request was due; budget: p99 < ${P99_BUDGET_MS} ms, 0 errors, ledger intact)`,
  outcomes.map((o) => ({ ...o })),
);
reportVerdicts(
  `mixed load${QUICK ? " (--quick: not a measure)" : ""} (copy these rows into docs/performance.md)`,
  verdicts,
);
