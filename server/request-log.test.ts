import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { requestLog } from "./request-log";

interface Line {
  level: number;
  msg: string;
  req: { method: string; url: string };
  res: { statusCode: number };
  responseTime: number;
}

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

async function start(level: pino.Level) {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Line);
      callback();
    },
  });
  // Each request the server has finished answering, in order. The listener is added after requestLog's
  // (Express runs the middleware in order, and a response's "finish" listeners run in the order added),
  // so when a request is counted here its log line, if any, has been written.
  const answered: string[] = [];
  let onAnswer = () => {};
  const app = express();
  app.use(requestLog(pino({ level }, sink)));
  app.use((req, res, next) => {
    res.once("finish", () => {
      answered.push(req.originalUrl);
      onAnswer();
    });
    next();
  });
  app.get("/ok", (_req, res) => void res.send("ok"));
  app.get("/boom", (_req, res) => void res.status(500).send("no"));
  app.get("/down", (_req, res) => void res.status(503).send("no"));
  app.get(
    "/maintenance",
    (_req, res) => void res.status(503).set("Retry-After", "300").send("back soon"),
  );
  app.get("/assets/app.js", (_req, res) => void res.send("js"));
  let slowReceived = () => {};
  const slowRequest = new Promise<void>((resolve) => (slowReceived = resolve));
  app.get("/slow", () => {
    // never answers: the client gives up
    slowReceived();
  });
  const server = app.listen(0);
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Resolves once the server has finished answering `count` requests (their "finish" events). */
  const answeredAll = (count: number) =>
    new Promise<string[]>((resolve) => {
      onAnswer = () => {
        if (answered.length >= count) resolve([...answered]);
      };
      onAnswer();
    });
  return { origin, lines, answeredAll, slowRequest };
}

describe("requestLog", () => {
  it("writes one line per request: method, path without the query, status and time", async () => {
    const { origin, lines, answeredAll } = await start("info");
    await (await fetch(`${origin}/ok?token=secret-reset-token`)).text();
    await (await fetch(`${origin}/boom`)).text();
    await answeredAll(2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: "request completed",
      req: { method: "GET", url: "/ok" },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0]!.responseTime).toBe("number");
    expect(JSON.stringify(lines)).not.toContain("secret-reset-token");
    expect(lines[1]).toMatchObject({ level: 50, res: { statusCode: 500 } });
  });

  it("writes a planned 503 (the maintenance page, with its Retry-After) at info, any other 5xx at error", async () => {
    const { origin, lines, answeredAll } = await start("info");
    await (await fetch(`${origin}/maintenance`)).text();
    await (await fetch(`${origin}/down`)).text();
    await answeredAll(2);
    expect(lines.map((l) => [l.req.url, l.level])).toEqual([
      ["/maintenance", 30],
      ["/down", 50],
    ]);
  });

  it("skips static assets", async () => {
    const { origin, lines, answeredAll } = await start("info");
    await (await fetch(`${origin}/assets/app.js`)).text();
    // A page after the asset: once both are answered, a line for the asset would be there before its own.
    await (await fetch(`${origin}/ok`)).text();
    expect(await answeredAll(2)).toEqual(["/assets/app.js", "/ok"]);
    expect(lines.map((l) => l.req.url)).toEqual(["/ok"]);
  });

  it("writes only the levels enabled (LOG_LEVEL=error keeps server errors)", async () => {
    const { origin, lines, answeredAll } = await start("error");
    await (await fetch(`${origin}/ok`)).text();
    await (await fetch(`${origin}/boom`)).text();
    await answeredAll(2);
    expect(lines.map((l) => l.req.url)).toEqual(["/boom"]);
  });

  it("says so when the client went away before the answer", async () => {
    const { origin, lines, slowRequest } = await start("info");
    const abort = new AbortController();
    const pending = fetch(`${origin}/slow`, { signal: abort.signal }).catch(() => null);
    await slowRequest;
    expect(lines).toEqual([]);
    abort.abort();
    await pending;
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: "request aborted", req: { url: "/slow" } });
  });
});
