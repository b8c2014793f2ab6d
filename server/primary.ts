import cluster, { type Worker } from "node:cluster";
import type { Logger } from "pino";

/** What a process of the cluster does: serve requests, or run the background worker alone. */
export type ProcessRole = "web" | "worker";

/** The variable that tells a forked process its role (server/index.ts reads it). */
export const ROLE_VARIABLE = "HOSTFRONT_PROCESS_ROLE";

/** What the worker process sends once its worker runs (it never listens on the port). */
export const WORKER_READY_MESSAGE = "hostfront:worker-ready";

/**
 * The cluster primary (WEB_CONCURRENCY > 1): it forks the server processes, which share the port, and
 * does no request work itself.
 * - The first process migrates and seeds the database; the others start once it listens, so two never
 *   migrate at once (Kysely takes no migration lock on SQLite).
 * - With `backgroundWorker` (WORKER=on), the jobs run in one process of their own beside the server
 *   processes, which are started with WORKER=off: a job's writes and a message's rendering never hold up
 *   the event loop that answers requests (on SQLite every write is synchronous, its commit's disk sync
 *   included), and one process claims the jobs instead of every server process competing for them.
 * - A process that dies after it was serving (or working) is replaced; one that dies before it ever
 *   listened (or started its worker) means the configuration or the database is wrong, and everything
 *   stops with exit code 1 rather than loop.
 * - A settings write in one process is relayed to the others, which forget their cached settings.
 * - SIGTERM/SIGINT stop every process gracefully. If the primary itself is killed, Node's cluster makes
 *   each server process exit at once (it loses its channel to the primary).
 */
export function runPrimary({
  workers,
  logger,
  backgroundWorker,
}: {
  workers: number;
  logger: Logger;
  backgroundWorker: boolean;
}) {
  let stopping = false;
  let exitCode = 0;
  const ready = new WeakSet<Worker>();
  const roles = new WeakMap<Worker, ProcessRole>();

  const fork = (role: ProcessRole) => {
    const worker = cluster.fork({
      [ROLE_VARIABLE]: role,
      ...(role === "web" && backgroundWorker ? { WORKER: "off" } : {}),
    });
    roles.set(worker, role);
    worker.once("listening", () => ready.add(worker));
    worker.on("message", (message: unknown) => {
      if (message === WORKER_READY_MESSAGE) {
        ready.add(worker);
        return;
      }
      if (typeof message !== "string" || !message.startsWith("hostfront:")) return;
      for (const other of Object.values(cluster.workers ?? {}))
        if (other && other !== worker && other.isConnected()) other.send(message);
    });
    return worker;
  };

  const first = fork("web");
  first.once("listening", () => {
    for (let i = 1; i < workers; i++) fork("web");
    if (backgroundWorker) fork("worker");
    logger.info(
      backgroundWorker
        ? `${workers} server processes and a worker process`
        : `${workers} server processes`,
    );
  });

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    const role = roles.get(worker) ?? "web";
    if (!ready.has(worker)) {
      logger.fatal(
        { code, signal, role },
        role === "worker"
          ? "the worker process stopped before its worker ran; stopping"
          : "a server process stopped before it could serve; stopping",
      );
      stop("SIGTERM", 1);
      return;
    }
    logger.error(
      { code, signal, role },
      role === "worker"
        ? "the worker process stopped; starting another"
        : "a server process stopped; starting another",
    );
    fork(role);
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
