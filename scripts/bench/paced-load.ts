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
 *
 * Failures are not left out of the figures: a request not answered within the timeout (counted from when
 * it was due) enters the percentiles at the timeout, and a connection error at the timeout too (it is no
 * better an answer than one that never came), so a run cannot look faster by failing its slowest
 * requests. Both are counted as errors, and so is any answer the caller did not expect; a redirect is an
 * answer like any other, and `isRedirectTo` tells one to the page meant from one to the login.
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
  /** Requests sent. */
  sent: number;
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
  /**
   * Every request's latency, sorted, in milliseconds (to pool several runs): answers from when each was
   * due, failures at the timeout.
   */
  latencies: number[];
}

/**
 * Whether an answer is a redirect to `expected` (a path with its query, "/dashboard/billing"): a 302
 * or 303 whose Location, resolved against the site, is that path on that site. A redirect to /login, to
 * another page or to another host is not the success it looks like.
 */
export function isRedirectTo(
  status: number,
  location: string | undefined,
  expected: string,
): boolean {
  if ((status !== 302 && status !== 303) || !location) return false;
  const base = "http://bench.invalid";
  const target = new URL(location, base);
  const wanted = new URL(expected, base);
  return (
    target.origin === base && target.pathname === wanted.pathname && target.search === wanted.search
  );
}

/** The kind an unexpected answer is counted under: "status 500", or "status 302 to /login". */
export function answerKind(status: number, location?: string): string {
  return status >= 300 && status < 400 && location
    ? `status ${status} to ${location}`
    : `status ${status}`;
}

/**
 * Where a failed request (timeout or connection error) enters the percentiles: at the timeout, or when it
 * failed if that was later.
 */
export function failureLatency(failedAfterMs: number, timeoutMs: number): number {
  return Math.max(failedAfterMs, timeoutMs);
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

/** The time a paced run keeps: when requests are due, how long each took, when one has timed out. */
export interface PacedClock {
  /** Milliseconds from any origin, never going back. */
  now(): number;
  /** Calls `callback` in `ms` milliseconds; returns what cancels it. */
  after(ms: number, callback: () => void): () => void;
}

/** The machine's clock and timers. */
const realClock: PacedClock = {
  now: () => performance.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};

export async function runPaced(options: {
  origin: string;
  rate: number;
  seconds: number;
  /** Connections the client may open at most; a request due while all are busy waits (and that counts). */
  connections?: number;
  /** The i-th request (0-based). */
  request: (i: number) => PacedRequest;
  /**
   * Called with each answer; returns whether it was the one expected (default: status 200). `location`
   * is the Location header, for redirects (see isRedirectTo).
   */
  onAnswer?: (i: number, status: number, latencyMs: number, location?: string) => boolean;
  /** Called with each failure: a connection error or a timeout, its kind and its latency as counted. */
  onFailure?: (i: number, kind: string, latencyMs: number) => void;
  /** A request not answered this long after it was due is abandoned and counted at this latency. */
  timeoutMs?: number;
  /** The clock the run is paced and timed on (default: the machine's); a test moves its own. */
  clock?: PacedClock;
}): Promise<PacedResult> {
  const clock = options.clock ?? realClock;
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
  let answered = 0;
  const pending = new Set<Promise<void>>();

  let sent = 0;
  const send = (i: number, due: number) => {
    const spec = options.request(i);
    sent++;
    const done = new Promise<void>((resolve) => {
      let settled = false;
      const fail = (error: NodeJS.ErrnoException) => {
        if (settled) return;
        settled = true;
        cancelDeadline();
        failures++;
        const kind = error.code ?? error.message;
        count(kind);
        const latency = failureLatency(clock.now() - due, timeoutMs);
        latencies.push(latency);
        options.onFailure?.(i, kind, latency);
        resolve();
      };
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
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            if (settled) return;
            settled = true;
            cancelDeadline();
            const now = clock.now();
            lastAnswer = now;
            answered++;
            latencies.push(now - due);
            const status = res.statusCode ?? 0;
            const location = res.headers.location;
            const ok = options.onAnswer
              ? options.onAnswer(i, status, now - due, location)
              : status === 200;
            if (!ok) {
              wrongStatus++;
              count(answerKind(status, location));
            }
            resolve();
          });
          res.on("error", fail);
        },
      );
      // From when the request was due, so time spent waiting for a free connection counts too.
      const cancelDeadline = clock.after(Math.max(0, due + timeoutMs - clock.now()), () =>
        req.destroy(new Error("timeout")),
      );
      req.on("error", fail);
      if (spec.body !== undefined) req.write(spec.body);
      req.end();
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };

  const start = clock.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = clock.now();
      // Everything due by now goes out, each with its own due time (a late timer must not shift the
      // schedule, or a slow server would lower the rate it is measured at).
      while (next < total && start + next * interval <= now) {
        send(next, start + next * interval);
        next++;
      }
      if (next >= total) return resolve();
      clock.after(Math.max(0, start + next * interval - clock.now()), tick);
    };
    tick();
  });
  while (pending.size) await Promise.all([...pending]);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const elapsed = Math.max(lastAnswer - start, options.seconds * 1000);
  return {
    sent,
    answered,
    rps: Math.round((answered * 1000) / elapsed),
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
