/**
 * The server's CPU per signed-in page, of one build or of several side by side: each build its own server
 * (one process) and database, with an empty customer and one with history; every page requested one at a
 * time on a kept-alive connection, the builds taking turns of ten requests, so that whatever else the
 * machine does weighs on each alike. CPU time is read from /proc in 10 ms ticks: a figure to compare needs
 * some 200 requests a page. Used by `npm run bench:server` (this build against main from before React
 * hydrated the signed-in pages) and by scripts/bench/probe-dashboard.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { basename } from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { AppServices } from "../../app/context.server";
import { listActiveProducts } from "../../app/domain/catalogue/catalogue.server";
import {
  freePort,
  startPostgresCluster,
  type PostgresCluster,
} from "../../tests/support/postgres-cluster";
import {
  benchServices,
  BROWSER_HEADERS,
  createCustomers,
  giveHistory,
  startServer,
  type BenchCustomer,
  type RunningServer,
} from "./lib";

/** The customer's signed-in pages. */
export const SIGNED_IN_PATHS = [
  "/dashboard",
  "/dashboard/services",
  "/dashboard/billing",
  "/dashboard/support",
  "/dashboard/account",
  "/order?product=1",
];
const TURN = 10;

type Who = "empty" | "history";

interface Target {
  build: string;
  server: RunningServer;
  services: AppServices;
  cluster?: PostgresCluster;
  agent: Agent;
  customers: Record<Who, BenchCustomer>;
  cpu: number[];
}

export interface SignedInCpuOptions {
  builds: string[];
  /** A throwaway durable PostgreSQL cluster per build instead of a SQLite file. */
  postgres?: boolean;
  /** Requests per page and build. */
  n: number;
  /** Warm-up rounds over every page before measuring. */
  warm: number;
  /** Node flags per build, after production's. */
  flagSets?: string[][];
  /** The request headers (a browser's by default). */
  headers?: Record<string, string>;
  /** Whose pages: the customer with history only, or the empty one too. */
  who?: Who[];
  /** Each page's last HTML into .tmp/probe-html(-n). */
  save?: boolean;
  /** V8 CPU profiles into .tmp/prof. */
  prof?: boolean;
  /** Each build's name in the columns (default: its folder's). */
  labels?: string[];
}

export interface SignedInCpu {
  /** One row a page: CPU ms per request and sizes, a column per build. */
  rows: Record<string, string>[];
  /** Each build's label and its mean CPU ms per request over the pages. */
  means: { label: string; cpuMs: number }[];
}

/** One GET on a kept-alive connection: the bytes on the wire and the HTML they decode to. */
function get(
  target: Target,
  path: string,
  cookie: string,
  headers: Record<string, string>,
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

export async function measureSignedInCpu(options: SignedInCpuOptions): Promise<SignedInCpu> {
  const headers = options.headers ?? BROWSER_HEADERS;
  const whos = options.who ?? ["empty", "history"];
  const targets: Target[] = [];
  try {
    for (const [index, build] of options.builds.entries()) {
      const cluster = options.postgres ? await startPostgresCluster({ durable: true }) : undefined;
      const databaseUrl = cluster?.url ?? `file:.tmp/probe${index || ""}/db.sqlite`;
      const server = await startServer({
        port: await freePort(),
        databaseUrl,
        buildDir: build,
        nodeFlags: options.flagSets?.[index],
        env: {
          WEB_CONCURRENCY: "1",
          NODE_OPTIONS: options.prof ? "--cpu-prof --cpu-prof-dir=.tmp/prof" : "",
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
    for (let round = 0; round < options.warm; round++)
      for (const target of targets)
        for (const who of whos)
          for (const path of SIGNED_IN_PATHS)
            await get(target, path, target.customers[who].cookie, headers);
    // Several builds' columns carry their build's name, to tell them apart; a lone build's need none.
    const labels = (options.labels ?? buildLabels(targets.map((target) => target.build))).map(
      (label, index) =>
        `${label}${options.flagSets?.[index]?.length ? ` ${options.flagSets[index].join(" ")}` : ""}`,
    );
    const names = targets.length > 1 ? labels.map((label) => ` ${label}`) : [""];
    const rows: Record<string, string>[] = [];
    for (const who of whos)
      for (const path of SIGNED_IN_PATHS) {
        const row: Record<string, string> = { who, path };
        const cpu = targets.map(() => 0);
        const times: number[][] = targets.map(() => []);
        const last: Awaited<ReturnType<typeof get>>[] = targets.map(() => ({
          status: 0,
          wire: 0,
          html: 0,
          body: Buffer.alloc(0),
        }));
        for (let done = 0; done < options.n; done += TURN)
          for (const [t, target] of targets.entries()) {
            const cookie = target.customers[who].cookie;
            const cpu0 = target.server.cpuMs() ?? 0;
            for (let i = done; i < Math.min(options.n, done + TURN); i++) {
              const t0 = performance.now();
              last[t] = await get(target, path, cookie, headers);
              times[t]!.push(performance.now() - t0);
              if (last[t]!.status !== 200) throw new Error(`${path}: status ${last[t]!.status}`);
            }
            cpu[t]! += (target.server.cpuMs() ?? 0) - cpu0;
          }
        for (const [t, target] of targets.entries()) {
          const name = names[t]!;
          const sorted = times[t]!.sort((a, b) => a - b);
          target.cpu.push(cpu[t]! / options.n);
          if (targets.length === 1) {
            row["median ms"] = sorted[sorted.length >> 1]!.toFixed(1);
            row["max ms"] = sorted[sorted.length - 1]!.toFixed(1);
          }
          row[`cpu ms/req${name}`] = (cpu[t]! / options.n).toFixed(2);
          row[`KiB html${name}`] = (last[t]!.html / 1024).toFixed(1);
          row[`KiB wire${name}`] = (last[t]!.wire / 1024).toFixed(1);
          if (options.save) {
            const dir = `.tmp/probe-html${t ? `-${t}` : ""}`;
            mkdirSync(dir, { recursive: true });
            writeFileSync(`${dir}/${who}${path.replace(/[/?=]+/g, "-")}.html`, last[t]!.body);
          }
        }
        rows.push(row);
      }
    return {
      rows,
      means: targets.map((target, index) => ({
        label: labels[index]!,
        cpuMs: target.cpu.reduce((a, b) => a + b, 0) / target.cpu.length,
      })),
    };
  } finally {
    for (const target of targets) {
      target.agent.destroy();
      await target.server.stop();
      await target.services.db.destroy();
      target.cluster?.stop();
    }
  }
}
