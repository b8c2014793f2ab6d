/**
 * The browser tests' PostgreSQL server (playwright.config.ts): a throwaway PostgreSQL cluster with an
 * empty database, then the production server on it, started as `npm run serve` starts it with a
 * postgres:// DATABASE_URL (it migrates and seeds at start-up). The cluster goes when the server does:
 * Playwright ends this process with SIGTERM, which is passed on to the server, and the cluster's folder
 * is removed once the server has exited.
 *
 * Run with the environment the config gives every server (PORT, ADMIN_EMAIL...); its DATABASE_URL is
 * ignored.
 */
import { spawn } from "node:child_process";
import pg from "pg";
import { serverArguments, SERVER_ENV } from "../../server/command";
import { startPostgresCluster } from "../support/postgres-cluster";

const cluster = await startPostgresCluster();
const admin = new pg.Client({ connectionString: cluster.url });
try {
  await admin.connect();
  await admin.query("CREATE DATABASE hostfront");
} catch (error) {
  // No server will stop the cluster: stop it here, so that no postmaster outlives the run.
  cluster.stop();
  throw error;
} finally {
  await admin.end().catch(() => undefined);
}
const url = new URL(cluster.url);
url.pathname = "/hostfront";

const server = spawn(process.execPath, serverArguments(process.env.BUILD_DIR), {
  env: { ...process.env, ...SERVER_ENV, DATABASE_URL: url.toString() },
  stdio: "inherit",
});
for (const signal of ["SIGTERM", "SIGINT"] as const)
  process.on(signal, () => {
    server.kill(signal);
  });
server.on("exit", (code, signal) => {
  cluster.stop();
  process.exit(code ?? (signal ? 1 : 0));
});
