/**
 * npm run worker: a process that only runs the background worker (no web server), beside the server
 * processes or on another machine sharing the PostgreSQL database (docs/automation.md). The server
 * processes can then be started with WORKER=off. SIGTERM lets running jobs finish, up to
 * WORKER_STOP_TIMEOUT_MS.
 */
import { ConfigError, getEnv } from "../app/config/env.server";
import { createServices, prepareDatabase } from "../app/context.server";
import { logger } from "../app/lib/logger.server";
import { startBackgroundWorker, stopBackgroundWorker } from "../server/worker";

async function main() {
  const env = getEnv();
  process.env.NODE_ENV = env.NODE_ENV;
  const services = createServices(env);
  await prepareDatabase(services);
  const worker = startBackgroundWorker(services);
  logger.info({ owner: worker.owner }, "worker-only process running");
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received, letting running jobs finish`);
    await stopBackgroundWorker(services);
    await services.database.destroy();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
