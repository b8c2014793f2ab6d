import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  answerKind,
  describeErrors,
  failureLatency,
  isRedirectTo,
  runPaced,
  type PacedClock,
  type PacedResult,
} from "./paced-load";

/**
 * A clock the test moves: what is set for later runs only when `next()` reaches its time. Between two
 * moves, `paced` lets every request and answer in flight arrive, so that the run's pacing, latencies and
 * timeouts are exact numbers, whatever the machine's speed.
 */
function manualClock() {
  let now = 0;
  let timers: { at: number; callback: () => void }[] = [];
  const clock: PacedClock & { next(): boolean } = {
    now: () => now,
    after(ms, callback) {
      const timer = { at: now + ms, callback };
      timers.push(timer);
      return () => void (timers = timers.filter((each) => each !== timer));
    },
    /** Moves to the earliest time set and runs all that is due then; false when nothing is left. */
    next() {
      if (timers.length === 0) return false;
      now = Math.min(...timers.map((timer) => timer.at));
      for (const timer of timers.filter((each) => each.at <= now)) {
        if (!timers.includes(timer)) continue; // cancelled by one that ran before it
        timers = timers.filter((each) => each !== timer);
        timer.callback();
      }
      return true;
    },
  };
  return clock;
}

type ManualClock = ReturnType<typeof manualClock>;

/** What the test server does with a request: answer it (at once or later on the clock), cut it, hold it. */
type Handling = { afterMs?: number; reply: (res: ServerResponse) => void } | "cut" | "hold";

interface PacedServer {
  origin: string;
  /** When each request had arrived whole, on the clock, by its index. */
  arrivals: number[];
  /** Requests that have arrived whole, and those the server answered or cut, by index. */
  received: Set<number>;
  done: Set<number>;
  /** Told whenever a request arrives or is answered or cut. */
  onChange: () => void;
}

let server: Server | undefined;

/**
 * A server whose requests (numbered by `paced`) are handled as `handle` says once each has arrived
 * whole (its body is the text given), on `clock`.
 */
async function pacedServer(
  clock: ManualClock,
  handle: (req: IncomingMessage, i: number, body: string) => Handling,
): Promise<PacedServer> {
  const target: PacedServer = {
    origin: "",
    arrivals: [],
    received: new Set(),
    done: new Set(),
    onChange: () => {},
  };
  server = createServer((req, res) => {
    const i = Number(req.headers["x-paced-index"]);
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      target.arrivals[i] = clock.now();
      target.received.add(i);
      const handling = handle(req, i, body);
      const finish = (act: () => void) => {
        act();
        target.done.add(i);
        target.onChange();
      };
      if (handling === "cut") finish(() => req.socket.destroy());
      else if (handling !== "hold") {
        const { afterMs, reply } = handling;
        if (afterMs === undefined) finish(() => reply(res));
        else clock.after(afterMs, () => finish(() => reply(res)));
      }
      target.onChange();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  target.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return target;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

type PacedOptions = Omit<Parameters<typeof runPaced>[0], "origin" | "clock">;

/**
 * Runs `runPaced` against `target` on `clock`, moving the clock only once nothing is left to happen
 * before: every request sent has reached the server (or waits for a busy connection), and every answer,
 * cut or timeout has reached the client.
 */
async function paced(
  clock: ManualClock,
  target: PacedServer,
  options: PacedOptions,
): Promise<PacedResult> {
  const start = clock.now();
  const interval = 1000 / options.rate;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const connections = options.connections ?? 64;
  let issued = 0;
  const settled = new Set<number>();
  let wake = () => {};
  target.onChange = () => wake();
  let result: PacedResult | undefined;
  const running = runPaced({
    ...options,
    origin: target.origin,
    clock,
    request: (i) => {
      issued = i + 1;
      const spec = options.request(i);
      return { ...spec, headers: { ...spec.headers, "x-paced-index": String(i) } };
    },
    onAnswer: (i, status, latencyMs, location) => {
      settled.add(i);
      wake();
      return options.onAnswer ? options.onAnswer(i, status, latencyMs, location) : status === 200;
    },
    onFailure: (i, kind, latencyMs) => {
      settled.add(i);
      wake();
      options.onFailure?.(i, kind, latencyMs);
    },
  });
  void running.then(
    (done) => {
      result = done;
      wake();
    },
    () => wake(),
  );
  const quiet = () => {
    // Connections taken: requests at the server that the client has not heard the end of.
    const busy = [...target.received].filter((i) => !settled.has(i)).length;
    for (let i = 0; i < issued; i++) {
      if (settled.has(i)) continue;
      // Answered or cut, or its timeout has come: the client is still to hear of it.
      if (target.done.has(i) || start + i * interval + timeoutMs <= clock.now()) return false;
      // On its way to the server, unless it waits for a connection to come free.
      if (!target.received.has(i) && busy < connections) return false;
    }
    return true;
  };
  for (;;) {
    while (result === undefined && !quiet()) await new Promise<void>((resolve) => (wake = resolve));
    if (result !== undefined) return result;
    // Nothing left on the clock: the run ends by itself.
    if (!clock.next()) return running;
  }
}

describe("evenly paced load", () => {
  it("sends the requests evenly over the run, not in a burst at the start of each second", async () => {
    const clock = manualClock();
    const target = await pacedServer(clock, () => ({ reply: (res) => res.end("ok") }));
    const result = await paced(clock, target, {
      rate: 100,
      seconds: 1,
      request: () => ({ path: "/" }),
    });
    expect(result.answered).toBe(100);
    expect(result.failures + result.wrongStatus).toBe(0);
    // 100 a second is one every 10 ms from the run's start: request i goes out at 10·i, neither in a
    // burst before its time nor later.
    expect(target.arrivals).toEqual(Array.from({ length: 100 }, (_, i) => i * 10));
  });

  it("counts a request's wait for a connection in its latency (no coordinated omission)", async () => {
    // One connection and 30 ms per answer serve 33 requests a second; 50 are due each second, so the
    // later ones wait longer and longer. A client that timed only the answer would see 30 ms each.
    const clock = manualClock();
    const target = await pacedServer(clock, () => ({
      afterMs: 30,
      reply: (res) => res.end("ok"),
    }));
    const result = await paced(clock, target, {
      rate: 50,
      seconds: 1,
      connections: 1,
      request: () => ({ path: "/" }),
    });
    expect(result.answered).toBe(50);
    // Request i is due at 20·i and answered at 30·(i + 1), one after the other on the one connection.
    expect(target.arrivals).toEqual(Array.from({ length: 50 }, (_, i) => i * 30));
    expect(result.latencies).toEqual(Array.from({ length: 50 }, (_, i) => 30 + 10 * i));
    expect(result).toMatchObject({ p50: 270, max: 520 });
  });

  it("sends bodies and reports statuses the caller did not expect", async () => {
    const clock = manualClock();
    const bodies: string[] = [];
    const target = await pacedServer(clock, (req, _i, body) => {
      bodies.push(`${req.method} ${body}`);
      return { reply: (res) => res.writeHead(req.method === "POST" ? 302 : 200).end("ok") };
    });
    const result = await paced(clock, target, {
      rate: 20,
      seconds: 0.5,
      request: (i) => ({
        method: i % 2 ? "POST" : "GET",
        path: "/",
        body: i % 2 ? "a=1" : undefined,
      }),
      onAnswer: (_i, status) => status === 302,
    });
    expect(result.answered).toBe(10);
    expect(result.wrongStatus).toBe(5);
    expect(result.errorKinds).toEqual({ "status 200": 5 });
    expect(bodies).toEqual(Array.from({ length: 10 }, (_, i) => (i % 2 ? "POST a=1" : "GET ")));
  });

  it("spreads requests over the connections it has open, as many visitors would", async () => {
    // The first requests are answered slowly, so several connections open; the rest come one at a
    // time. Reusing the last freed connection would send them all down one, and so to one server
    // process of several (a cluster shares out connections, not requests).
    const clock = manualClock();
    const sockets = new Map<object, number>();
    const target = await pacedServer(clock, (req, i) => {
      if (i >= 10) sockets.set(req.socket, (sockets.get(req.socket) ?? 0) + 1);
      return { afterMs: i < 5 ? 60 : 1, reply: (res) => res.end("ok") };
    });
    const result = await paced(clock, target, {
      rate: 100,
      seconds: 0.6,
      request: () => ({ path: "/" }),
    });
    expect(result.answered).toBe(60);
    expect(sockets.size).toBeGreaterThanOrEqual(4);
    expect(Math.max(...sockets.values())).toBeLessThanOrEqual(25);
  });

  it("says what each failure was", async () => {
    // Every other connection is cut before an answer: a reset, not a status.
    const clock = manualClock();
    const target = await pacedServer(clock, (req) =>
      req.url === "/cut" ? "cut" : { reply: (res) => res.end("ok") },
    );
    const result = await paced(clock, target, {
      rate: 20,
      seconds: 0.5,
      request: (i) => ({ path: i % 2 ? "/cut" : "/" }),
    });
    expect(result.failures).toBe(5);
    expect(result.wrongStatus).toBe(0);
    expect(result.errorKinds).toEqual({ ECONNRESET: 5 });
    // A connection error is in the percentiles, at the timeout: failing fast cannot lower a p99.
    expect(result.answered).toBe(5);
    expect(result.latencies).toEqual([0, 0, 0, 0, 0, 30_000, 30_000, 30_000, 30_000, 30_000]);
    expect(result.max).toBe(30_000);
    expect(describeErrors({ ...result.errorKinds, "status 500": 2 })).toBe(
      "5 ECONNRESET, 2 status 500",
    );
    expect(describeErrors({ "status 500": 2 }, (kind) => !kind.startsWith("status "))).toBe("");
  });

  it("counts a request that timed out at its timeout, not as if it never was", async () => {
    // Every fourth request is never answered: the survivors alone would read p99 of a few ms.
    const clock = manualClock();
    const target = await pacedServer(clock, (req) =>
      req.url === "/hang" ? "hold" : { reply: (res) => res.end("ok") },
    );
    const result = await paced(clock, target, {
      rate: 40,
      seconds: 0.5,
      timeoutMs: 250,
      request: (i) => ({ path: i % 4 === 3 ? "/hang" : "/" }),
    });
    expect(result.sent).toBe(20);
    expect(result.answered).toBe(15);
    expect(result.failures).toBe(5);
    expect(result.errorKinds).toEqual({ timeout: 5 });
    // Answered at once, or given up on exactly at the timeout from when each was due.
    expect(result.latencies).toEqual([...Array<number>(15).fill(0), ...Array<number>(5).fill(250)]);
    expect(result).toMatchObject({ p50: 0, p95: 250, p99: 250 });
    expect(failureLatency(3, 250)).toBe(250);
    expect(failureLatency(400, 250)).toBe(400);
  });

  it("takes a redirect for a success only when it goes to the page expected", async () => {
    expect(isRedirectTo(302, "/dashboard?tab=billing", "/dashboard?tab=billing")).toBe(true);
    expect(isRedirectTo(303, "/dashboard?tab=billing", "/dashboard?tab=billing")).toBe(true);
    expect(isRedirectTo(302, "/login?redirectTo=%2Forder", "/dashboard?tab=billing")).toBe(false);
    expect(isRedirectTo(302, "/login", "/dashboard?tab=billing")).toBe(false);
    expect(isRedirectTo(302, "/dashboard", "/dashboard?tab=billing")).toBe(false);
    expect(
      isRedirectTo(302, "https://evil.test/dashboard?tab=billing", "/dashboard?tab=billing"),
    ).toBe(false);
    expect(isRedirectTo(200, "/dashboard?tab=billing", "/dashboard?tab=billing")).toBe(false);
    expect(isRedirectTo(302, undefined, "/dashboard?tab=billing")).toBe(false);
    expect(answerKind(302, "/login")).toBe("status 302 to /login");
    expect(answerKind(500)).toBe("status 500");

    // Half the orders are sent to the login (a session gone): they are errors, not placed orders.
    const clock = manualClock();
    const target = await pacedServer(clock, (req) => ({
      reply: (res) =>
        res
          .writeHead(302, {
            location: req.url === "/signed-out" ? "/login" : "/dashboard?tab=billing",
          })
          .end(),
    }));
    const placed: number[] = [];
    const result = await paced(clock, target, {
      rate: 20,
      seconds: 0.5,
      request: (i) => ({ method: "POST", path: i % 2 ? "/signed-out" : "/order", body: "a=1" }),
      onAnswer: (i, status, _ms, location) => {
        const ok = isRedirectTo(status, location, "/dashboard?tab=billing");
        if (ok) placed.push(i);
        return ok;
      },
    });
    expect(placed).toHaveLength(5);
    expect(result.wrongStatus).toBe(5);
    expect(result.errorKinds).toEqual({ "status 302 to /login": 5 });
  });
});
