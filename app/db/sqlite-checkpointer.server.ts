import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * WAL checkpoints on a thread of their own. SQLite copies the write-ahead log back into the database file
 * (and, with synchronous=FULL, waits for the disk) in whichever connection commits when the log passes
 * 1,000 pages. better-sqlite3 is synchronous, so that connection's process stops answering meanwhile:
 * measured here, a commit that usually takes 0.3 ms took up to 200 ms when it ran the checkpoint, and
 * every request queued behind it. This thread checkpoints every CHECKPOINT_INTERVAL_MS instead, so a
 * request's commit only appends to the log and waits for that (docs/performance.md). A passive checkpoint
 * never blocks a writer or a reader.
 */
const CHECKPOINT_INTERVAL_MS = 250;
/**
 * The request connections still checkpoint past this many pages (about 40 MB), so the log stays bounded
 * if this thread ever falls behind or stops.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma("busy_timeout = 1000");
const checkpoint = () => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // Busy or locked: the next turn tries again, and the fallback bound holds meanwhile.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once("message", () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  let exited = false;
  // A thread that fails leaves the request connections' own checkpoints (the fallback bound) in charge.
  worker.on("error", () => {});
  worker.once("exit", () => (exited = true));
  worker.unref();
  return {
    stop: () =>
      exited
        ? Promise.resolve()
        : new Promise((resolve) => {
            worker.once("exit", () => resolve());
            worker.postMessage("stop");
          }),
  };
}
