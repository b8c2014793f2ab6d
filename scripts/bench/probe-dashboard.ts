/**
 * `node --import tsx scripts/bench/probe-dashboard.ts [--reuse-build]`, not part of `npm run bench`: each
 * signed-in page of an empty customer and of one with history, requested one at a time by one server
 * process, with the server's CPU per request and the HTML size, to find which page costs what.
 * Each request carries a browser's headers (BROWSER_HEADERS: brotli accepted, as the server benchmark
 * sends); the wire size is what the server sent, the HTML size after decoding it.
 * PROBE_N sets the requests per page (30; CPU time is read in 10 ms ticks, so use 200 or more to compare
 * two builds), PROBE_WARM the warm-up rounds over every page (20); PROBE_DB=postgres runs it on a throwaway durable PostgreSQL cluster instead of SQLite;
 * PROBE_ENCODING replaces the Accept-Encoding sent (`gzip`, `identity`); PROBE_PROF=1 writes V8 CPU
 * profiles into .tmp/prof (issue 23); PROBE_SAVE=1 keeps each page's last HTML in .tmp/probe/html.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { parseEnv } from "../../app/config/env.server";
import { createServices } from "../../app/context.server";
import { listActiveProducts } from "../../app/domain/catalogue/catalogue.server";
import {
  findPostgresBin,
  freePort,
  startPostgresCluster,
  type PostgresCluster,
} from "../../tests/support/postgres-cluster";
import {
  BENCH_SECRET,
  BROWSER_HEADERS,
  createCustomers,
  ensureBuild,
  giveHistory,
  printTable,
  startServer,
} from "./lib";

const PATHS = [
  "/dashboard",
  "/dashboard?tab=services",
  "/dashboard?tab=billing",
  "/dashboard?tab=support",
  "/dashboard?tab=account",
  "/order?product=1",
];
const N = Number(process.env.PROBE_N ?? 30);
const headers: Record<string, string> = {
  ...BROWSER_HEADERS,
  ...(process.env.PROBE_ENCODING ? { "accept-encoding": process.env.PROBE_ENCODING } : {}),
};

ensureBuild();
let cluster: PostgresCluster | undefined;
if (process.env.PROBE_DB === "postgres") {
  if (!findPostgresBin()) throw new Error("PROBE_DB=postgres: no PostgreSQL binaries");
  cluster = await startPostgresCluster({ durable: true });
}
const databaseUrl = cluster?.url ?? "file:.tmp/probe/db.sqlite";
const server = await startServer({
  port: await freePort(),
  databaseUrl,
  env: {
    WEB_CONCURRENCY: "1",
    NODE_OPTIONS: process.env.PROBE_PROF ? "--cpu-prof --cpu-prof-dir=.tmp/prof" : "",
  },
});
const services = createServices({
  ...parseEnv({ DATABASE_URL: databaseUrl }),
  AUTH_SECRET: BENCH_SECRET,
});
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET on a kept-alive connection: the bytes on the wire and the HTML they decode to. */
function get(
  path: string,
  cookie: string,
): Promise<{ status: number; wire: number; html: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      server.url + path,
      { agent, headers: { ...headers, cookie } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"];
          const html =
            encoding === "br"
              ? brotliDecompressSync(body)
              : encoding === "gzip"
                ? gunzipSync(body)
                : encoding === "deflate"
                  ? inflateSync(body)
                  : body;
          resolve({
            status: res.statusCode ?? 0,
            wire: body.length,
            html: html.length,
            body: html,
          });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

try {
  const [plain, heavy] = await createCustomers(services, 2);
  const product = (await listActiveProducts(services.db, "samp"))[0]!;
  await giveHistory(services, heavy!, product.id);
  // The first requests compile the code paths (V8, React Router's route tables): warm every page first.
  for (let round = 0; round < Number(process.env.PROBE_WARM ?? 20); round++)
    for (const customer of [plain!, heavy!])
      for (const path of PATHS) await get(path, customer.cookie);
  const rows = [];
  let totalCpu = 0;
  for (const [who, customer] of [
    ["empty", plain!],
    ["history", heavy!],
  ] as const)
    for (const path of PATHS) {
      const times: number[] = [];
      let sizes = { status: 0, wire: 0, html: 0, body: Buffer.alloc(0) };
      for (let i = 0; i < 5; i++) await get(path, customer.cookie);
      const cpu0 = server.cpuMs() ?? 0;
      for (let i = 0; i < N; i++) {
        const t0 = performance.now();
        sizes = await get(path, customer.cookie);
        times.push(performance.now() - t0);
        if (sizes.status !== 200) throw new Error(`${path}: status ${sizes.status}`);
      }
      const cpu = ((server.cpuMs() ?? 0) - cpu0) / N;
      if (process.env.PROBE_SAVE) {
        mkdirSync(".tmp/probe/html", { recursive: true });
        writeFileSync(`.tmp/probe/html/${who}${path.replace(/[/?=]+/g, "-")}.html`, sizes.body);
      }
      totalCpu += cpu;
      times.sort((a, b) => a - b);
      rows.push({
        who,
        path,
        "median ms": times[times.length >> 1]!.toFixed(1),
        "max ms": times[times.length - 1]!.toFixed(1),
        "cpu ms/req": cpu.toFixed(2),
        "KiB html": (sizes.html / 1024).toFixed(1),
        "KiB wire": (sizes.wire / 1024).toFixed(1),
      });
    }
  printTable(
    `dashboard probe (${cluster ? "postgres" : "sqlite"}, 1 process, sequential, ${N} requests a page, Accept-Encoding: ${headers["accept-encoding"]})`,
    rows,
  );
  console.log(
    `mean cpu ms/req over the ${rows.length} pages: ${(totalCpu / rows.length).toFixed(2)}`,
  );
} finally {
  agent.destroy();
  await server.stop();
  await services.db.destroy();
  cluster?.stop();
  process.exit(0);
}
