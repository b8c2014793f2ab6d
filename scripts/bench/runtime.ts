/**
 * npm run bench:runtime — what it costs to run the server process (ADR 17): the time from starting it to
 * its first answer, and the resident memory of its whole process tree (children included, such as tsx's
 * esbuild service) after a warm-up of public and signed-in pages. One server process (WEB_CONCURRENCY=1),
 * a fresh SQLite database per run, on loopback only. The production command is measured next to two
 * others, so the decision it records can be checked again:
 *
 * - production: `npm run serve`'s command (server/command.ts), the budget applies to it;
 * - compiled entry, Node's defaults: the same file without the memory flags of server/command.ts;
 * - tsx at run time: the TypeScript entry loaded through tsx, as production ran before ADR 17.
 *
 * Each is run RUNTIME_RUNS times (3 by default) and the median printed with the spread. The warm-up is
 * RUNTIME_WARM_UP requests (6,000), 8 at a time; the memory is read once the server first answers (what
 * `ps -o rss` shows after start) and RUNTIME_SETTLE_MS (30,000 ms) after the warm-up, where the budget
 * applies, and the peak the processes reached is printed beside them. The budget for the production
 * command is 200 MB (docs/performance.md).
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync } from "node:fs";
import path from "node:path";
import { listActiveProducts } from "../../app/domain/catalogue/catalogue.server";
import { SERVER_ENTRY, SERVER_ENV, serverArguments } from "../../server/command";
import { freePort } from "../../tests/support/postgres-cluster";
import {
  BENCH_ADMIN,
  BENCH_BUILD,
  BENCH_LOGS,
  BENCH_SECRET,
  benchServices,
  atMost,
  benchPorts,
  createCustomers,
  ensureBuild,
  none,
  printTable,
  processTree,
  processCpuMs,
  QUICK,
  reportVerdicts,
  signInCookie,
  treeMemoryMb,
  warmUp,
  withExtraFlags,
  type Verdict,
} from "./lib";

// --quick: one run of each command, a short warm-up and idle, to prove the script works.
const RUNS = QUICK ? 1 : Number(process.env.RUNTIME_RUNS ?? 3);
const WARM_UP_REQUESTS = QUICK ? 300 : Number(process.env.RUNTIME_WARM_UP ?? 6_000);
/** How long the server idles after the warm-up before its memory is read. */
const SETTLE_MS = QUICK ? 1_000 : Number(process.env.RUNTIME_SETTLE_MS ?? 30_000);
/**
 * Node flags to try (RUNTIME_NODE_ARGS="--max-semi-space-size=16"), after each command's own so that
 * they can change one of production's; a run with them is not an official run.
 */
const EXTRA_NODE_ARGS = process.env.RUNTIME_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
/** The budget for one server process tree after warm-up. */
const RSS_BUDGET_MB = 200;

interface Variant {
  name: string;
  args: string[];
  /** The environment it starts with beside the benchmark's (production's SERVER_ENV). */
  env?: Readonly<Record<string, string>>;
}

const variants: Variant[] = [
  { name: "production (npm run serve)", args: serverArguments(BENCH_BUILD), env: SERVER_ENV },
  {
    name: "compiled entry, Node's defaults",
    args: [path.join(BENCH_BUILD, SERVER_ENTRY)],
  },
  { name: "tsx at run time (before ADR 17)", args: ["--import", "tsx", "server/index.ts"] },
];

interface Measure {
  startMs: number;
  /** Resident memory of the tree once it first answered, before the warm-up. */
  startRssMb: number;
  /** CPU time of the server's process tree per warm-up request, in ms. */
  cpuPerRequestMs: number;
  rssMb: number;
  /** The highest resident memory the tree's processes reached, added up. */
  peakMb: number;
  processes: number;
  errors: number;
}

const nextPort = benchPorts(freePort);

async function measure(variant: Variant, run: number): Promise<Measure> {
  const port = await nextPort();
  const folder = path.resolve(`.tmp/bench-runtime/${run}`);
  mkdirSync(BENCH_LOGS, { recursive: true });
  const logFd = openSync(
    path.join(BENCH_LOGS, `runtime-${variants.indexOf(variant)}-${run}.log`),
    "w",
  );
  rmSync(folder, { recursive: true, force: true });
  const databaseUrl = `file:${folder}/hostfront.db`;
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, withExtraFlags(variant.args, EXTRA_NODE_ARGS), {
    env: {
      ...process.env,
      ...variant.env,
      NODE_ENV: "production",
      BUILD_DIR: BENCH_BUILD,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: BENCH_SECRET,
      PUBLIC_URL: url,
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      // The bench signs its admin in with a password alone (a new install would ask an owner for two-factor).
      FIRST_START_TWO_FACTOR_ROLES: "none",
      ENTRY_GATE: "off",
      // Production's default; its log goes to a file, as a service manager's journal would take it.
      LOG_LEVEL: "info",
      LOGIN_IP_LIMIT_PER_MINUTE: "1000000",
      FORM_RATE_LIMIT_PER_MINUTE: "1000000",
      WEB_CONCURRENCY: "1",
    },
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`${variant.name}: the server did not start`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const startMs = performance.now() - started;
    // What `ps -o rss` showed right after start (the figure the 200 MB budget was set against: about
    // 300 MB with tsx on Node 20), before any page.
    const startRssMb = treeMemoryMb(child.pid!, "VmRSS");

    const services = benchServices(databaseUrl);
    let errors = 0;
    let cpuPerRequestMs = NaN;
    try {
      const [customer] = await createCustomers(services, 1);
      const admin = await signInCookie(services);
      const product = (await listActiveProducts(services.db, "samp"))[0]!;
      const pages: [string, string | undefined][] = [
        ["/", undefined],
        ["/services/samp", undefined],
        ["/login", undefined],
        ["/about", undefined],
        ["/dashboard", customer!.cookie],
        ["/dashboard/billing", customer!.cookie],
        [`/order?product=${product.id}`, customer!.cookie],
        ["/support/new", customer!.cookie],
        ["/admin", admin],
        ["/admin/clients", admin],
        ["/admin/orders", admin],
      ];
      const cpuBefore = processCpuMs(child.pid) ?? 0;
      await warmUp(WARM_UP_REQUESTS, async (i) => {
        const [page, cookie] = pages[i % pages.length]!;
        const response = await fetch(`${url}${page}`, {
          headers: cookie ? { cookie } : {},
          redirect: "manual",
        }).catch(() => null);
        if (!response || response.status >= 400) errors++;
        await response?.arrayBuffer();
      });
      cpuPerRequestMs = ((processCpuMs(child.pid) ?? 0) - cpuBefore) / WARM_UP_REQUESTS;
    } finally {
      await services.database.destroy();
    }
    // Let the last garbage be collected as an idle server's would be, then read the whole tree.
    // Then idle, as a server is between bursts: V8's memory reducer runs on an idle process after a few
    // seconds and gives back what the warm-up's garbage took. The figure is read after that.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return {
      startMs,
      startRssMb,
      cpuPerRequestMs,
      rssMb: treeMemoryMb(child.pid!, "VmRSS"),
      peakMb: treeMemoryMb(child.pid!, "VmHWM"),
      processes: processTree(child.pid!).length,
      errors,
    };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    await exited;
    rmSync(folder, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

ensureBuild();
console.log(
  `Node ${process.version}; ${RUNS} runs per command, ${WARM_UP_REQUESTS} requests each.`,
);
const rows: Record<string, string | number>[] = [];
const verdicts: Verdict[] = [];
// RUNTIME_ONLY=production measures the production command alone (a quicker check of a change).
const measured = process.env.RUNTIME_ONLY === "production" ? variants.slice(0, 1) : variants;
if (EXTRA_NODE_ARGS.length > 0)
  console.log(
    `servers started with the extra flags ${EXTRA_NODE_ARGS.join(" ")}: not an official run`,
  );
for (const variant of measured) {
  const results: Measure[] = [];
  for (let run = 0; run < RUNS; run++) results.push(await measure(variant, run));
  const rss = results.map((r) => r.rssMb);
  const start = results.map((r) => r.startMs);
  const errors = results.reduce((sum, r) => sum + r.errors, 0);
  const production = variant === variants[0];
  const met = median(rss) <= RSS_BUDGET_MB && errors === 0;
  if (production)
    verdicts.push(
      atMost(
        `${variant.name}: RSS ${SETTLE_MS / 1000} s after ${WARM_UP_REQUESTS} requests (median of ${RUNS})`,
        median(rss),
        RSS_BUDGET_MB,
        " MB",
      ),
      none(`${variant.name}: errors`, errors),
    );
  rows.push({
    command: variant.name,
    "start ms (median, min-max)": `${median(start).toFixed(0)} (${Math.min(...start).toFixed(0)}-${Math.max(...start).toFixed(0)})`,
    "RSS MB after start (median)": median(results.map((r) => r.startRssMb)).toFixed(0),
    "RSS MB 30 s after warm-up (median, min-max)": `${median(rss).toFixed(0)} (${Math.min(...rss).toFixed(0)}-${Math.max(...rss).toFixed(0)})`,
    "peak RSS MB (median)": median(results.map((r) => r.peakMb)).toFixed(0),
    "CPU ms per request (median)": median(results.map((r) => r.cpuPerRequestMs)).toFixed(2),
    processes: results[0]!.processes,
    errors,
    budget: production ? `<= ${RSS_BUDGET_MB} MB: ${met ? "met" : "NOT met"}` : "",
  });
}
printTable("Server process: start time and memory (one process, SQLite)", rows);
reportVerdicts(
  `server process${QUICK ? " (--quick: not a measure)" : ""} (copy these rows into docs/performance.md)`,
  verdicts,
);
process.exit(process.exitCode ?? 0);
