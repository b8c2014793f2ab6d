/**
 * `node --import tsx scripts/bench/probe-dashboard.ts [--reuse-build]`, not part of `npm run bench`: each
 * signed-in page of an empty customer and of one with history, requested one at a time by one server
 * process, with the server's CPU per request and the HTML size, to find which page costs what.
 * Each request carries a browser's headers (BROWSER_HEADERS: brotli accepted, as the server benchmark
 * sends); the wire size is what the server sent, the HTML size after decoding it.
 *
 * - PROBE_N: requests per page (30; CPU time is read in 10 ms ticks, so use 200 or more to compare);
 * - PROBE_WARM: warm-up rounds over every page (20);
 * - PROBE_DB=postgres: a throwaway durable PostgreSQL cluster instead of SQLite;
 * - PROBE_ENCODING: another Accept-Encoding (`gzip`, `identity`);
 * - PROBE_BUILDS=dirA,dirB: two builds (made with `BUILD_DIR=dirA npm run build`) side by side, each
 *   with its own server and database, their requests taken in turns of ten, so that whatever else the
 *   machine is doing weighs on both alike; without it, the benchmark's build;
 * - PROBE_FLAGS="flagsA|flagsB": Node flags for each target's server, after production's (e.g.
 *   `PROBE_BUILDS=.tmp/bench-build,.tmp/bench-build PROBE_FLAGS="|--max-semi-space-size=16"` compares one
 *   build under two settings);
 * - PROBE_PROF=1: V8 CPU profiles into .tmp/prof; PROBE_SAVE=1: each page's last HTML into
 *   .tmp/probe-html.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { basename } from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { AppServices } from "../../app/context.server";
import { listActiveProducts } from "../../app/domain/catalogue/catalogue.server";
import {
  findPostgresBin,
  freePort,
  startPostgresCluster,
  type PostgresCluster,
} from "../../tests/support/postgres-cluster";
import {
  BENCH_BUILD,
  benchServices,
  BROWSER_HEADERS,
  createCustomers,
  ensureBuild,
  giveHistory,
  printTable,
  startServer,
  type BenchCustomer,
  type RunningServer,
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
const TURN = 10;
const headers: Record<string, string> = {
  ...BROWSER_HEADERS,
  ...(process.env.PROBE_ENCODING ? { "accept-encoding": process.env.PROBE_ENCODING } : {}),
};
const builds = process.env.PROBE_BUILDS?.split(",").filter(Boolean) ?? [];
const flagSets = (process.env.PROBE_FLAGS?.split("|") ?? []).map((flags) =>
  flags.split(" ").filter(Boolean),
);
const postgres = process.env.PROBE_DB === "postgres";
if (builds.length === 0) ensureBuild();
if (postgres && !findPostgresBin()) throw new Error("PROBE_DB=postgres: no PostgreSQL binaries");

interface Target {
  build: string;
  server: RunningServer;
  services: AppServices;
  cluster?: PostgresCluster;
  agent: Agent;
  customers: Record<"empty" | "history", BenchCustomer>;
  cpu: number[];
}

const targets: Target[] = [];

/** One GET on a kept-alive connection: the bytes on the wire and the HTML they decode to. */
function get(
  target: Target,
  path: string,
  cookie: string,
): Promise<{ status: number; wire: number; html: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      target.server.url + path,
      { agent: target.agent, headers: { ...headers, cookie } },
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

/**
 * Each build's column name: its folder's name, or its whole path when two folders share a name (a/build,
 * b/build).
 */
function buildLabels(builds: string[]): string[] {
  const shared = new Set(builds.map((build) => basename(build))).size < builds.length;
  return builds.map((build) => (shared ? build : basename(build)));
}

try {
  for (const [index, build] of (builds.length ? builds : [BENCH_BUILD]).entries()) {
    const cluster = postgres ? await startPostgresCluster({ durable: true }) : undefined;
    const databaseUrl = cluster?.url ?? `file:.tmp/probe${index || ""}/db.sqlite`;
    const server = await startServer({
      port: await freePort(),
      databaseUrl,
      buildDir: build,
      nodeFlags: flagSets[index],
      env: {
        WEB_CONCURRENCY: "1",
        NODE_OPTIONS: process.env.PROBE_PROF ? "--cpu-prof --cpu-prof-dir=.tmp/prof" : "",
      },
    });
    const services = benchServices(databaseUrl);
    const target: Target = {
      build,
      server,
      services,
      cluster,
      agent: new Agent({ keepAlive: true, maxSockets: 1 }),
      customers: {} as Target["customers"],
      cpu: [],
    };
    targets.push(target);
    const [plain, heavy] = await createCustomers(services, 2);
    const product = (await listActiveProducts(services.db, "samp"))[0]!;
    await giveHistory(services, heavy!, product.id);
    target.customers = { empty: plain!, history: heavy! };
  }
  // The first requests compile the code paths (V8, React Router's route tables): warm every page first.
  for (let round = 0; round < Number(process.env.PROBE_WARM ?? 20); round++)
    for (const target of targets)
      for (const customer of Object.values(target.customers))
        for (const path of PATHS) await get(target, path, customer.cookie);
  // Several builds' columns carry their build's name, to tell them apart; a lone build's need none.
  const names =
    targets.length > 1
      ? buildLabels(targets.map((target) => target.build)).map(
          (label, index) =>
            ` ${label}${flagSets[index]?.length ? ` ${flagSets[index].join(" ")}` : ""}`,
        )
      : [""];
  const rows = [];
  for (const who of ["empty", "history"] as const)
    for (const path of PATHS) {
      const row: Record<string, string> = { who, path };
      const cpu = targets.map(() => 0);
      const times: number[][] = targets.map(() => []);
      let last: { status: number; wire: number; html: number; body: Buffer }[] = targets.map(
        () => ({ status: 0, wire: 0, html: 0, body: Buffer.alloc(0) }),
      );
      for (let done = 0; done < N; done += TURN)
        for (const [t, target] of targets.entries()) {
          const cookie = target.customers[who].cookie;
          const cpu0 = target.server.cpuMs() ?? 0;
          for (let i = done; i < Math.min(N, done + TURN); i++) {
            const t0 = performance.now();
            last[t] = await get(target, path, cookie);
            times[t]!.push(performance.now() - t0);
            if (last[t]!.status !== 200) throw new Error(`${path}: status ${last[t]!.status}`);
          }
          cpu[t]! += (target.server.cpuMs() ?? 0) - cpu0;
        }
      for (const [t, target] of targets.entries()) {
        const name = names[t]!;
        const sorted = times[t]!.sort((a, b) => a - b);
        target.cpu.push(cpu[t]! / N);
        if (targets.length === 1) {
          row["median ms"] = sorted[sorted.length >> 1]!.toFixed(1);
          row["max ms"] = sorted[sorted.length - 1]!.toFixed(1);
        }
        row[`cpu ms/req${name}`] = (cpu[t]! / N).toFixed(2);
        row[`KiB html${name}`] = (last[t]!.html / 1024).toFixed(1);
        row[`KiB wire${name}`] = (last[t]!.wire / 1024).toFixed(1);
        if (process.env.PROBE_SAVE) {
          const dir = `.tmp/probe-html${t ? `-${t}` : ""}`;
          mkdirSync(dir, { recursive: true });
          writeFileSync(`${dir}/${who}${path.replace(/[/?=]+/g, "-")}.html`, last[t]!.body);
        }
      }
      last = [];
      rows.push(row);
    }
  printTable(
    `dashboard probe (${postgres ? "postgres" : "sqlite"}, 1 process, sequential, ${N} requests a page, Accept-Encoding: ${headers["accept-encoding"]})`,
    rows,
  );
  for (const [index, target] of targets.entries())
    console.log(
      `mean cpu ms/req over the ${target.cpu.length} pages${targets.length > 1 ? ` (${names[index]?.trim()})` : ""}: ${(target.cpu.reduce((a, b) => a + b, 0) / target.cpu.length).toFixed(2)}`,
    );
} catch (error) {
  // Said and counted: the exit below would otherwise end a failed probe with 0 and no word.
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const target of targets) {
    target.agent.destroy();
    await target.server.stop();
    await target.services.db.destroy();
    target.cluster?.stop();
  }
  process.exit();
}
