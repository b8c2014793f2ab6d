/**
 * Requests at a fixed rate, evenly spaced: request i is due at start + i / rate, whether or not earlier
 * answers have come back (an open loop), and its latency runs from when it was due, not from when a free
 * connection sent it. This is what "p95 at 200 requests/s" means.
 *
 * autocannon cannot do it: its rate is a quota per connection and second, which each connection spends as
 * fast as the server answers, then waits for the next second (mcollina/autocannon#174). Its "200/s" is a
 * burst of 200 requests by all connections at once, every second, and its latency is how long the server
 * takes to drain that burst. The method here is wrk2's (constant throughput, latency corrected for
 * coordinated omission).
 */
import http from "node:http";
import { percentile } from "./lib";

export interface PacedRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface PacedResult {
  /** Requests answered (with any status). */
  answered: number;
  /** Answers per second over the run, from the first request due to the last answer. */
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Connection errors and requests not answered within the timeout. */
  failures: number;
  /** Answers whose status the caller did not expect. */
  wrongStatus: number;
  /** What each failure and unexpected answer was ("ECONNRESET", "timeout", "status 500"), counted. */
  errorKinds: Record<string, number>;
  /** Every latency, sorted, in milliseconds (to pool several runs). */
  latencies: number[];
}

/** Error kinds as a line ("2 ECONNRESET, 1 status 500"), those `keep` accepts; "" when there are none. */
export function describeErrors(
  kinds: Record<string, number>,
  keep: (kind: string) => boolean = () => true,
): string {
  return Object.entries(kinds)
    .filter(([kind]) => keep(kind))
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
}

export async function runPaced(options: {
  origin: string;
  rate: number;
  seconds: number;
  /** Connections the client may open at most; a request due while all are busy waits (and that counts). */
  connections?: number;
  /** The i-th request (0-based). */
  request: (i: number) => PacedRequest;
  /** Called with each answer; returns whether the status was the expected one (default: 200). */
  onAnswer?: (i: number, status: number, latencyMs: number) => boolean;
  timeoutMs?: number;
}): Promise<PacedResult> {
  const origin = new URL(options.origin);
  // An idle connection is dropped after 4 s, before the server's keep-alive timeout (Node's 5 s) closes it:
  // a request sent on a connection the server is closing that very moment fails with ECONNRESET. Node 20's
  // agent reads the server's "Keep-Alive: timeout=5" hint only when it has a timeout of its own.
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: options.connections ?? 64,
    timeout: 4_000,
    // Free connections are reused in turn, not the last one freed first (Node's default): a server's
    // processes share out connections, not requests, and with "lifo" a load the first connection could
    // carry went down it alone, to one of two server processes (85% and 16% of a core in one run), as
    // many visitors with their own connections never would.
    scheduling: "fifo",
  });
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const latencies: number[] = [];
  let failures = 0;
  let wrongStatus = 0;
  const errorKinds: Record<string, number> = {};
  const count = (kind: string) => (errorKinds[kind] = (errorKinds[kind] ?? 0) + 1);
  let lastAnswer = 0;
  const pending = new Set<Promise<void>>();

  const send = (i: number, due: number) => {
    const spec = options.request(i);
    const done = new Promise<void>((resolve) => {
      const req = http.request(
        {
          host: origin.hostname,
          port: origin.port,
          method: spec.method ?? "GET",
          path: spec.path,
          headers: {
            ...spec.headers,
            ...(spec.body === undefined ? {} : { "content-length": Buffer.byteLength(spec.body) }),
          },
          agent,
          timeout: timeoutMs,
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            const now = performance.now();
            lastAnswer = now;
            latencies.push(now - due);
            const ok = options.onAnswer
              ? options.onAnswer(i, res.statusCode ?? 0, now - due)
              : res.statusCode === 200;
            if (!ok) {
              wrongStatus++;
              count(`status ${res.statusCode}`);
            }
            resolve();
          });
          res.on("error", (error: NodeJS.ErrnoException) => {
            failures++;
            count(error.code ?? error.message);
            resolve();
          });
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", (error: NodeJS.ErrnoException) => {
        failures++;
        count(error.code ?? error.message);
        resolve();
      });
      if (spec.body !== undefined) req.write(spec.body);
      req.end();
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };

  const start = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Everything due by now goes out, each with its own due time (a late timer must not shift the
      // schedule, or a slow server would lower the rate it is measured at).
      while (next < total && start + next * interval <= now) {
        send(next, start + next * interval);
        next++;
      }
      if (next >= total) return resolve();
      setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    tick();
  });
  while (pending.size) await Promise.all([...pending]);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const elapsed = Math.max(lastAnswer - start, options.seconds * 1000);
  return {
    answered: latencies.length,
    rps: Math.round((latencies.length * 1000) / elapsed),
    p50: round(percentile(latencies, 0.5)),
    p95: round(percentile(latencies, 0.95)),
    p99: round(percentile(latencies, 0.99)),
    max: round(latencies.at(-1) ?? NaN),
    failures,
    wrongStatus,
    errorKinds,
    latencies,
  };
}
