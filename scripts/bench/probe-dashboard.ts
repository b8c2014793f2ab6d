/**
 * `node --import tsx scripts/bench/probe-dashboard.ts [--reuse-build]`, not part of `npm run bench`: each
 * signed-in page of an empty customer and of one with history, requested one at a time by one server
 * process on SQLite, with the server's CPU per request and the HTML size, to find which page costs what.
 * PROBE_N sets the requests per page (30); PROBE_PROF=1 writes V8 CPU profiles into .tmp/prof (issue 23).
 */
import { parseEnv } from "../../app/config/env.server";
import { createServices } from "../../app/context.server";
import { listActiveProducts } from "../../app/domain/catalogue/catalogue.server";
import { freePort } from "../../tests/support/postgres-cluster";
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
ensureBuild();
const databaseUrl = "file:.tmp/probe/db.sqlite";
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
try {
  const [plain, heavy] = await createCustomers(services, 2);
  const product = (await listActiveProducts(services.db, "samp"))[0]!;
  await giveHistory(services, heavy!, product.id);
  const rows = [];
  for (const [who, customer] of [
    ["empty", plain!],
    ["history", heavy!],
  ] as const)
    for (const path of PATHS) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 5; i++)
        await fetch(server.url + path, {
          headers: { ...BROWSER_HEADERS, cookie: customer.cookie },
        }).then((r) => r.text());
      const cpu0 = server.cpuMs() ?? 0;
      for (let i = 0; i < Number(process.env.PROBE_N ?? 30); i++) {
        const t0 = performance.now();
        const res = await fetch(server.url + path, { headers: { cookie: customer.cookie } });
        bytes = (await res.text()).length;
        times.push(performance.now() - t0);
      }
      const cpu = ((server.cpuMs() ?? 0) - cpu0) / Number(process.env.PROBE_N ?? 30);
      times.sort((a, b) => a - b);
      rows.push({
        who,
        path,
        "median ms": times[times.length >> 1]!.toFixed(1),
        "max ms": times[times.length - 1]!.toFixed(1),
        "cpu ms/req": cpu.toFixed(1),
        "KiB html": (bytes / 1024).toFixed(0),
      });
    }
  printTable("dashboard probe (1 process, sequential)", rows);
} finally {
  await server.stop();
  await services.db.destroy();
  process.exit(0);
}
