import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { FromWorker, RaceJob, RaceResult, ToWorker } from "./race-worker";

export type { RaceJob, RaceResult } from "./race-worker";

export interface RaceRun {
  /** Each worker's results, in the order of its jobs. */
  results: RaceResult[][];
  /** When each worker started its jobs and when it had every answer (process-moments.ts). */
  sentAt: string[];
  answeredAt: string[];
}

export interface RaceWorkers {
  /**
   * Hands worker i the jobs jobsPerWorker[i], waits until every worker has its connections open (the
   * barrier), then tells them all to start at once, each firing its jobs at once.
   */
  race(jobsPerWorker: RaceJob[][]): Promise<RaceRun>;
  stop(): Promise<void>;
}

const WORKER = path.resolve(import.meta.dirname, "race-worker.ts");

/**
 * Starts `count` server processes on the database at `url` (tests/support/race-worker.ts), forked with
 * this Node and tsx. They start once (a few seconds each) and serve every race of a test file.
 */
export async function startRaceWorkers(url: string, count: number): Promise<RaceWorkers> {
  const children: ChildProcess[] = [];
  const errors: string[] = [];
  for (let i = 0; i < count; i++) {
    const child = fork(WORKER, [url], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    });
    child.stderr?.on("data", (chunk: Buffer) => errors.push(chunk.toString()));
    children.push(child);
  }

  function next<T extends FromWorker["type"]>(child: ChildProcess, type: T) {
    return new Promise<Extract<FromWorker, { type: T }>>((resolve, reject) => {
      const onMessage = (message: FromWorker) => {
        if (message.type !== type) return;
        cleanup();
        resolve(message as Extract<FromWorker, { type: T }>);
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`race worker exited (${code}) before "${type}": ${errors.join("")}`));
      };
      const cleanup = () => {
        child.off("message", onMessage);
        child.off("exit", onExit);
      };
      child.on("message", onMessage);
      child.on("exit", onExit);
    });
  }
  const send = (child: ChildProcess, message: ToWorker) => child.send(message);

  return {
    async race(jobsPerWorker) {
      if (jobsPerWorker.length !== children.length)
        throw new Error(`${jobsPerWorker.length} job lists for ${children.length} workers`);
      const armed = children.map((child) => next(child, "armed"));
      children.forEach((child, i) => send(child, { type: "arm", jobs: jobsPerWorker[i]! }));
      await Promise.all(armed);
      const done = children.map((child) => next(child, "done"));
      // Every worker is ready: all are told to go, one message after the other.
      for (const child of children) send(child, { type: "go" });
      const reports = await Promise.all(done);
      if (errors.length) throw new Error(`race worker wrote to stderr: ${errors.join("")}`);
      return {
        results: reports.map((report) => report.results),
        sentAt: reports.map((report) => report.sentAt),
        answeredAt: reports.map((report) => report.answeredAt),
      };
    },
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || !child.connected) return resolve();
              child.once("exit", () => resolve());
              send(child, { type: "exit" });
            }),
        ),
      );
    },
  };
}
