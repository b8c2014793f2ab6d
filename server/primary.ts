import cluster, { type Worker } from "node:cluster";
import type { Logger } from "pino";

/**
 * The cluster primary (WEB_CONCURRENCY > 1): it forks the server processes, which share the port, and
 * does no request work itself.
 * - The first process migrates and seeds the database; the others start once it listens, so two never
 *   migrate at once (Kysely takes no migration lock on SQLite).
 * - A process that dies after it was serving is replaced; one that dies before it ever listened means
 *   the configuration or the database is wrong, and everything stops with exit code 1 rather than loop.
 * - A settings write in one process is relayed to the others, which forget their cached settings.
 * - SIGTERM/SIGINT stop every process gracefully. If the primary itself is killed, Node's cluster makes
 *   each server process exit at once (it loses its channel to the primary).
 */
export function runPrimary({ workers, logger }: { workers: number; logger: Logger }) {
  let stopping = false;
  let exitCode = 0;
  const listened = new WeakSet<Worker>();

  const fork = () => {
    const worker = cluster.fork();
    worker.once("listening", () => listened.add(worker));
    worker.on("message", (message: unknown) => {
      if (typeof message !== "string" || !message.startsWith("hostfront:")) return;
      for (const other of Object.values(cluster.workers ?? {}))
        if (other && other !== worker && other.isConnected()) other.send(message);
    });
    return worker;
  };

  const first = fork();
  first.once("listening", () => {
    for (let i = 1; i < workers; i++) fork();
    logger.info(`${workers} server processes`);
  });

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    if (!listened.has(worker)) {
      logger.fatal({ code, signal }, "a server process stopped before it could serve; stopping");
      stop("SIGTERM", 1);
      return;
    }
    logger.error({ code, signal }, "a server process stopped; starting another");
    fork();
  });

  function stop(signal: NodeJS.Signals, code = 0) {
    stopping = true;
    exitCode = code;
    const alive = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    if (alive.length === 0) process.exit(exitCode);
    for (const worker of alive) worker.process.kill(signal);
  }
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
