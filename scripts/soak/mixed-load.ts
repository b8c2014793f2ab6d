/**
 * npm run soak:load — mixed load against a production build, on SQLite and then on PostgreSQL (a throwaway
 * cluster): SOAK_SECONDS (default 60) at SOAK_RATE requests/s (default 200), 80% reads (public pages and
 * signed-in customers' dashboards) and 20% order placements by many customers with enough coins. Prints
 * p50/p95/p99 and the errors, then checks that every acknowledged order is in the database and that the
 * ledger equals every balance. The p99 < 250 ms budget is measured and printed, not asserted: the script
 * exits 1 only on errors or a broken ledger. Stops by itself.
 */
import autocannon from "autocannon";
import { parseEnv } from "../../app/config/env.server";
import { createServices } from "../../app/context.server";
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
  startServer,
  SERVER_PROCESSES,
} from "../bench/lib";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const RATE = Number(process.env.SOAK_RATE ?? 200);
const CUSTOMERS = 100;
const P99_BUDGET_MS = 250;

const PUBLIC_PAGES = ["/", "/services/samp", "/services/vps", "/game-hosting", "/about", "/login"];
const DASHBOARD_TABS = ["/dashboard", "/dashboard?tab=services", "/dashboard?tab=billing"];

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
  const services = createServices({
    ...parseEnv({ DATABASE_URL: databaseUrl }),
    AUTH_SECRET: BENCH_SECRET,
  });
  try {
    const customers = await createCustomers(services, CUSTOMERS);
    const product = (await listActiveProducts(services.db, "samp"))[0]!;
    // Warm-up: the first requests compile code paths and fill caches; they are not what we measure.
    for (const path of [...PUBLIC_PAGES, ...DASHBOARD_TABS])
      for (let i = 0; i < 5; i++)
        await (
          await fetch(`${server.url}${path}`, { headers: { cookie: customers[i]!.cookie } })
        ).text();

    let n = 0;
    const acknowledged: string[] = [];
    const wrongAnswers = new Map<string, number>();
    const wrong = (what: string) => wrongAnswers.set(what, (wrongAnswers.get(what) ?? 0) + 1);
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const read: autocannon.Request = {
      method: "GET",
      setupRequest: (request) => {
        // Half the reads are public pages, half a signed-in customer's dashboard.
        if (Math.random() < 0.5) return { ...request, path: pick(PUBLIC_PAGES), headers: {} };
        return {
          ...request,
          path: pick(DASHBOARD_TABS),
          headers: { cookie: pick(customers).cookie },
        };
      },
      onResponse: (status) => {
        if (status !== 200) wrong(`read answered ${status}`);
      },
    };
    const order: autocannon.Request = {
      method: "POST",
      path: "/order",
      setupRequest: (request, context) => {
        const i = n++;
        const key = `soak-${label}-${i}-${Date.now()}`;
        // A connection has one request in flight: its answer is about this key.
        (context as { key?: string }).key = key;
        return {
          ...request,
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-site": "same-origin",
            cookie: customers[i % customers.length]!.cookie,
          },
          body: new URLSearchParams({
            productId: String(product.id),
            serverName: `soak ${i}`,
            idempotencyKey: key,
          }).toString(),
        };
      },
      onResponse: (status, _body, context) => {
        if (status === 302) acknowledged.push((context as { key: string }).key);
        else wrong(`order answered ${status}`);
      },
    };
    // Each connection cycles through the list: four reads, then an order (80% / 20%).
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      autocannon(
        {
          url: server.url,
          connections: 20,
          overallRate: RATE,
          duration: SECONDS,
          requests: [read, read, read, read, order],
        },
        (error, r) => (error ? reject(error) : resolve(r)),
      );
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
    const wrongCount = [...wrongAnswers.values()].reduce((a, b) => a + b, 0);
    const errors = result.errors + result.timeouts + wrongCount;
    if (errors)
      console.log(
        `${label}: ${result.errors} connection errors, ${result.timeouts} timeouts, ${[...wrongAnswers].map(([what, count]) => `${count} ${what}`).join(", ") || "no wrong answers"}`,
      );
    if (errors || problems.length || lost) process.exitCode = 1;
    return {
      database: label,
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p95: result.latency.p97_5 ?? result.latency.p99, // autocannon reports 97.5; closest to p95 it has
      p99: result.latency.p99,
      errors,
      "orders acknowledged": acknowledged.length,
      "acknowledged but missing": lost,
      ledger: problems.length ? `FAILED for ${problems.length} user(s)` : "passed",
      "p99 budget": result.latency.p99 < P99_BUDGET_MS ? "met" : "NOT met",
    };
  } finally {
    await services.database.destroy();
    await server.stop();
  }
}

ensureBuild();
const outcomes = [await soakDialect("sqlite", "file:./.tmp/soak-load-sqlite/hostfront.db")];
if (findPostgresBin()) {
  const cluster = await startPostgresCluster();
  try {
    outcomes.push(await soakDialect("postgres", cluster.url));
  } finally {
    cluster.stop();
  }
} else {
  console.log("PostgreSQL server binaries not found: skipping the PostgreSQL run.");
}
printTable(
  `Mixed load (${SERVER_PROCESSES} server processes, ${SECONDS} s at ${RATE} requests/s: 80% reads, 20% orders; latency in ms; budget: p99 < ${P99_BUDGET_MS} ms, 0 errors, ledger intact)`,
  outcomes.map((o) => ({ ...o })),
);
if (process.exitCode)
  console.log("\nMixed load FAILED: errors, a lost acknowledged order or a broken ledger (above).");
