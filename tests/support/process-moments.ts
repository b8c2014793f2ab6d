import { spawn } from "node:child_process";

/**
 * A moment on the machine's monotonic clock (CLOCK_MONOTONIC, which every process on one machine shares),
 * in nanoseconds as a decimal string: what the processes of a race test report, so that the test can put
 * their events in order. Not the wall clock, which can step (NTP) between two readings.
 */
export function processMoment(): string {
  return String(process.hrtime.bigint());
}

/** Whether moment `a` came before moment `b` (both from processMoment). */
export function isEarlier(a: string, b: string): boolean {
  return BigInt(a) < BigInt(b);
}

/**
 * For the child side of a start signal: resolves once the parent writes a line to this process's stdin
 * (see startSignal), so that every process of a race starts together, once all are ready, instead of at
 * an agreed time on the clock.
 */
export function goSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once("data", () => {
      process.stdin.pause();
      resolve();
    });
  });
}

/** The child's half of the handshake: its connections are open, it waits for goSignal. */
export const READY_LINE = "ready";

export interface SignalledChild {
  /** Resolves once the child has printed READY_LINE. */
  ready: Promise<void>;
  /** Tells the child to go (goSignal). */
  go(): void;
  /** Resolves when it ends: its exit code, and what it printed after READY_LINE and to stderr. */
  done: Promise<{ code: number | null; out: string; err: string }>;
}

/**
 * Runs a TypeScript file of tests/support as a process of its own (a server process, as SQLite and
 * PostgreSQL see it) that says when it is ready and starts when told (goSignal): the test starts several,
 * waits for all to be ready, then tells all to go.
 */
export function startSignalledChild(file: string, args: string[]): SignalledChild {
  const child = spawn("node", ["--import", "tsx", file, ...args]);
  let out = "";
  let err = "";
  let isReady = false;
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    const line = isReady ? -1 : out.indexOf(`${READY_LINE}\n`);
    if (line !== -1) {
      isReady = true;
      out = out.slice(line + READY_LINE.length + 1);
      markReady();
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on("close", (code) => {
      // A child that ended before it was ready (an error at start) must not leave the test waiting.
      markReady();
      resolve({ code, out, err });
    }),
  );
  return { ready, go: () => child.stdin.end("go\n"), done };
}

/** Starts every child, waits until all are ready, tells all to go, and waits for all to end. */
export async function raceChildren(children: SignalledChild[]) {
  await Promise.all(children.map((child) => child.ready));
  for (const child of children) child.go();
  return Promise.all(children.map((child) => child.done));
}
