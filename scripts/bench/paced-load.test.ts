import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answerKind, describeErrors, failureLatency, isRedirectTo, runPaced } from "./paced-load";

let server: Server | undefined;

/** A server that answers after `delayMs`, one request at a time per connection, noting when each arrived. */
async function slowServer(delayMs: number): Promise<{ origin: string; arrivals: number[] }> {
  const arrivals: number[] = [];
  server = createServer((req, res) => {
    arrivals.push(performance.now());
    req.resume();
    setTimeout(() => res.writeHead(req.method === "POST" ? 302 : 200).end("ok"), delayMs);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, arrivals };
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe("evenly paced load", () => {
  it("sends the requests evenly over the run, not in a burst at the start of each second", async () => {
    const { origin, arrivals } = await slowServer(1);
    const before = performance.now();
    const result = await runPaced({
      origin,
      rate: 100,
      seconds: 1,
      request: () => ({ path: "/" }),
    });
    expect(result.answered).toBe(100);
    expect(result.failures + result.wrongStatus).toBe(0);
    // 100 per second is one every 10 ms from the run's start (which is after `before`). A burst sends
    // request i before its time; a busy machine can only send it late (timers never fire early), so
    // "the i-th arrival is never before its time" holds however loaded the machine is. The 2 ms allow
    // for the clocks of timers and of performance.now().
    const early = arrivals.filter((at, i) => at - before < i * 10 - 2);
    expect(early.map((at) => Math.round(at - before))).toEqual([]);
    expect(arrivals[99]! - before).toBeGreaterThanOrEqual(990 - 2);
  });

  it("counts a request's wait for a connection in its latency (no coordinated omission)", async () => {
    // One connection and 30 ms per answer serve 33 requests a second; 50 are due each second, so the
    // later ones wait longer and longer. A client that timed only the answer would see 30 ms each.
    const { origin } = await slowServer(30);
    const result = await runPaced({
      origin,
      rate: 50,
      seconds: 1,
      connections: 1,
      request: () => ({ path: "/" }),
    });
    expect(result.answered).toBe(50);
    expect(result.p50).toBeGreaterThanOrEqual(30);
    expect(result.max).toBeGreaterThan(400);
  });

  it("sends bodies and reports statuses the caller did not expect", async () => {
    const { origin } = await slowServer(1);
    const result = await runPaced({
      origin,
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
  });

  it("spreads requests over the connections it has open, as many visitors would", async () => {
    // The first requests are answered slowly, so several connections open; the rest come one at a
    // time. Reusing the last freed connection would send them all down one, and so to one server
    // process of several (a cluster shares out connections, not requests).
    const sockets = new Map<object, number>();
    let seen = 0;
    server = createServer((req, res) => {
      const index = seen++;
      if (index >= 10) sockets.set(req.socket, (sockets.get(req.socket) ?? 0) + 1);
      setTimeout(() => res.end("ok"), index < 5 ? 60 : 1);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await runPaced({
      origin,
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
    server = createServer((req, res) => {
      if (req.url === "/cut") req.socket.destroy();
      else res.end("ok");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await runPaced({
      origin,
      rate: 20,
      seconds: 0.5,
      request: (i) => ({ path: i % 2 ? "/cut" : "/" }),
    });
    expect(result.failures).toBe(5);
    expect(result.wrongStatus).toBe(0);
    expect(result.errorKinds).toEqual({ ECONNRESET: 5 });
    // A connection error is in the percentiles, at the timeout: failing fast cannot lower a p99.
    expect(result.answered).toBe(5);
    expect(result.latencies).toHaveLength(10);
    expect(result.max).toBeGreaterThanOrEqual(30_000);
    expect(describeErrors({ ...result.errorKinds, "status 500": 2 })).toBe(
      "5 ECONNRESET, 2 status 500",
    );
    expect(describeErrors({ "status 500": 2 }, (kind) => !kind.startsWith("status "))).toBe("");
  });

  it("counts a request that timed out at its timeout, not as if it never was", async () => {
    // Every fourth request is never answered: the survivors alone would read p99 of a few ms.
    server = createServer((req, res) => {
      if (req.url === "/hang") return;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await runPaced({
      origin,
      rate: 40,
      seconds: 0.5,
      timeoutMs: 250,
      request: (i) => ({ path: i % 4 === 3 ? "/hang" : "/" }),
    });
    expect(result.sent).toBe(20);
    expect(result.answered).toBe(15);
    expect(result.failures).toBe(5);
    expect(result.errorKinds).toEqual({ timeout: 5 });
    expect(result.latencies).toHaveLength(20);
    expect(result.p95).toBeGreaterThanOrEqual(250);
    expect(result.p99).toBeGreaterThanOrEqual(250);
    expect(result.p50).toBeLessThan(250);
    server.closeAllConnections();
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
    server = createServer((req, res) => {
      req.resume();
      res
        .writeHead(302, {
          location: req.url === "/signed-out" ? "/login" : "/dashboard?tab=billing",
        })
        .end();
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const placed: number[] = [];
    const result = await runPaced({
      origin,
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
