/**
 * What `npm run bench:servers` counts and judges from the panel's own request log and the status route's
 * answers: the panel's Client API requests per server and per cache period, and the verdicts. Pure, so
 * its rules are unit tested (servers-checks.test.ts).
 */
import { atMost, below, none, passes, type Verdict } from "./lib";

/** One request the panel received, with when it arrived (ms, any origin shared with `start`). */
export interface PanelRequestSeen {
  at: number;
  url: string;
}

/** The server a Client API path names (`/api/client/servers/{server}/…`), or null for any other path. */
export function clientServerOf(url: string): string | null {
  const path = url.split("?")[0]!;
  const match = /^\/api\/client\/servers\/([^/]+)(?:\/|$)/.exec(path);
  return match ? decodeURIComponent(match[1]!).toLowerCase() : null;
}

/** The bound the issue sets: one request a server a period, and one more each for the first read. */
export function requestBound(servers: number, seconds: number, periodMs: number): number {
  return servers * Math.ceil((seconds * 1000) / periodMs) + servers;
}

export interface ReadsOutcome {
  /** The servers watched. */
  servers: number;
  /** Load periods: ⌈seconds / period⌉; requests after the load count in one more, the last. */
  periods: number;
  /** Client API requests naming a watched server, from `start` on. */
  total: number;
  bound: number;
  /** Requests in each period (the last: after the load). */
  perPeriod: number[];
  /** The most requests one server had in one period, and where. */
  maxInOnePeriod: number;
  worst: { server: string; period: number; count: number } | null;
  /** The shortest time between two requests of one server (Infinity: none was asked twice). */
  minGapMs: number;
  closest: { server: string; gapMs: number } | null;
  /** Watched servers asked fewer times than there are load periods: their state went stale on screen. */
  notRefreshed: string[];
  /** Client API requests for no watched server (another server, or a path naming none). */
  strangers: string[];
}

/**
 * Counts the Client API's requests from `start` (the load's start) on: period k holds those that arrived
 * in [start + k·period, start + (k+1)·period), the load's last period ending at start + seconds, and every
 * later one counts in one more period after the load (a refresh asked at its very end). Requests before
 * `start` are left to the caller (setting up).
 */
export function countReads(input: {
  requests: readonly PanelRequestSeen[];
  /** The watched servers' identifiers. */
  watched: readonly string[];
  start: number;
  seconds: number;
  periodMs: number;
}): ReadsOutcome {
  const periods = Math.ceil((input.seconds * 1000) / input.periodMs);
  const watched = new Set(input.watched.map((server) => server.toLowerCase()));
  const times = new Map<string, number[]>([...watched].map((server) => [server, []]));
  const strangers: string[] = [];
  const perPeriod = Array.from({ length: periods + 1 }, () => 0);
  let total = 0;
  for (const request of input.requests) {
    if (!(request.at >= input.start) || !request.url.startsWith("/api/client")) continue;
    const server = clientServerOf(request.url);
    if (server === null || !watched.has(server)) {
      strangers.push(request.url);
      continue;
    }
    total += 1;
    times.get(server)!.push(request.at);
  }
  let maxInOnePeriod = 0;
  let worst: ReadsOutcome["worst"] = null;
  let minGapMs = Infinity;
  let closest: ReadsOutcome["closest"] = null;
  const notRefreshed: string[] = [];
  for (const [server, list] of times) {
    list.sort((a, b) => a - b);
    if (list.length < periods) notRefreshed.push(server);
    const counts = Array.from({ length: periods + 1 }, () => 0);
    for (const at of list) {
      const period = Math.min(periods, Math.floor((at - input.start) / input.periodMs));
      counts[period]! += 1;
      perPeriod[period]! += 1;
    }
    for (const [period, count] of counts.entries())
      if (count > maxInOnePeriod) {
        maxInOnePeriod = count;
        worst = { server, period, count };
      }
    for (let i = 1; i < list.length; i++) {
      const gap = list[i]! - list[i - 1]!;
      if (gap < minGapMs) {
        minGapMs = gap;
        closest = { server, gapMs: gap };
      }
    }
  }
  return {
    servers: watched.size,
    periods,
    total,
    bound: requestBound(watched.size, input.seconds, input.periodMs),
    perPeriod,
    maxInOnePeriod,
    worst,
    minGapMs,
    closest,
    notRefreshed: notRefreshed.sort(),
    strangers,
  };
}

/** The status route's answers over the load, as the paced client counted them. */
export interface RouteFigures {
  sent: number;
  p50: number;
  p95: number;
  p99: number;
  /** Connection errors and requests not answered in time. */
  failures: number;
  /** Answers that were not the one expected. */
  wrongStatus: number;
  errorKinds: Record<string, number>;
}

/**
 * How far apart two panel requests of one server may be seen and still be one per cache period: the
 * panel notes a request's arrival, the worker the time of its answer, on one machine's clock; a second
 * apart covers the answer's delay and the worker taking the job.
 */
export const GAP_TOLERANCE_MS = 1_000;

/** Every error of the run, one line each: the route's, the panel's, and those the caller found. */
export function describeErrors(
  reads: ReadsOutcome,
  route: RouteFigures,
  others: readonly string[],
): string[] {
  const errors: string[] = [];
  const kinds = Object.entries(route.errorKinds)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
  if (route.failures + route.wrongStatus > 0)
    errors.push(`${route.failures + route.wrongStatus} status requests failed (${kinds})`);
  if (reads.notRefreshed.length)
    errors.push(
      `${reads.notRefreshed.length} watched servers asked fewer than ${reads.periods} times (${reads.notRefreshed.slice(0, 5).join(", ")})`,
    );
  if (reads.strangers.length)
    errors.push(
      `${reads.strangers.length} Client API requests for no watched server (${reads.strangers.slice(0, 3).join(", ")})`,
    );
  return [...errors, ...others];
}

/** The verdict rows of one database's run. */
export function serverVerdicts(input: {
  database: string;
  reads: ReadsOutcome;
  route: RouteFigures;
  /** The viewers, as a phrase for the row ("500 viewers (100 customers × 5 devices) every 10 s"). */
  load: string;
  periodMs: number;
  p95LimitMs: number;
  otherErrors: readonly string[];
}): Verdict[] {
  const { database: db, reads, route } = input;
  const errors = describeErrors(reads, route, input.otherErrors);
  const worst =
    reads.worst && reads.maxInOnePeriod > 1
      ? ` (server ${reads.worst.server}, period ${reads.worst.period + 1})`
      : "";
  const gapOk = reads.minGapMs >= input.periodMs - GAP_TOLERANCE_MS;
  return [
    atMost(
      `${db}: panel requests of one server in one ${input.periodMs / 1000} s cache period, the most of ${reads.servers} servers × ${reads.periods + 1} periods${worst}`,
      reads.maxInOnePeriod,
      1,
    ),
    passes(
      `${db}: shortest time between two panel requests of one server (at least the cache period, less ${GAP_TOLERANCE_MS} ms)`,
      gapOk,
      Number.isFinite(reads.minGapMs)
        ? `${Math.round(reads.minGapMs) / 1000} s${reads.closest && !gapOk ? ` (server ${reads.closest.server})` : ""}`
        : "no server asked twice",
    ),
    atMost(
      `${db}: panel requests in all (${reads.servers} × ${reads.periods} periods + ${reads.servers})`,
      reads.total,
      reads.bound,
    ),
    below(`${db}: status route p95, ${input.load}`, route.p95, input.p95LimitMs, " ms"),
    none(`${db}: errors`, errors.length, errors.join("; ")),
  ];
}
