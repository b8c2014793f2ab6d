/**
 * One worker process of `npm run bench:provisioning` (scripts/bench/provisioning.ts), started with
 * fork(), the benchmark's build folder as its argument and the environment production gives it
 * (DATABASE_URL, AUTH_SECRET, PANEL_POLL_MS ...). It does what the cluster's worker process does
 * (server/index.ts `work()`): a nice value 10 above its parent's, then the production build's server
 * module, which boots the services (the database prepared, mail kept unwritten without SMTP_URL) and
 * starts the background worker with every handler and schedule of production (server/app.ts,
 * server/worker.ts); nothing listens. Tells its parent `{ type: "ready" }`; on SIGTERM the running jobs
 * may finish (WORKER_STOP_TIMEOUT_MS) and it exits 0.
 *
 * The build, not the sources through tsx: the i18n catalogues are found with Vite's import.meta.glob,
 * which only a Vite build (or test run) resolves.
 */
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const buildDir = process.argv[2];
if (!buildDir) throw new Error("usage: provisioning-worker.ts <build folder>");
try {
  os.setPriority(Math.min(19, os.getPriority() + 10));
} catch {
  // A platform that refuses it: the worker runs at its parent's priority.
}
const serverBuild = (await import(
  pathToFileURL(path.resolve(buildDir, "server/index.js")).href
)) as { shutdown(): Promise<void> };
process.send?.({ type: "ready" });

process.on("SIGTERM", () => {
  void serverBuild
    .shutdown()
    .catch(() => {})
    .then(() => process.exit(0));
});
