import { request } from "node:http";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { describe, expect, it } from "vitest";
import { responseCompression } from "../../server/response-compression";
import { bareTwin } from "./bare-twin";

/** The raw (still compressed) body an origin sends for "/" to a client that accepts brotli. */
function rawBody(origin: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${origin}/`, { headers: { "accept-encoding": "br" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

async function serve(
  middleware: express.RequestHandler,
  bytes: string,
): Promise<{ url: string; close: () => void }> {
  const app = express();
  app.use(middleware);
  app.use((_req, res) => res.type("text/html").send(bytes));
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

describe("a page's bare twin", () => {
  // A signed-in page's size and kind of text: some 100 KiB of markup, varied enough that the
  // compression settings change the bytes.
  const page = Array.from(
    { length: 900 },
    (_, i) =>
      `<tr><td>${i}</td><td>Service ${(i * 7919) % 1000}</td><td>${((i * 104729) % 99991).toString(36)}</td><td><a href="/services/${i}">Renew</a></td></tr>`,
  ).join("\n");

  it("sends the bytes the server's own compression makes of the page, not compression's defaults", async () => {
    const twin = await bareTwin(page);
    const server = await serve(responseCompression(), page);
    const defaults = await serve(compression(), page);
    try {
      const fromTwin = await rawBody(twin.url);
      const fromServer = await rawBody(server.url);
      const fromDefaults = await rawBody(defaults.url);
      expect(fromTwin.encoding).toBe("br");
      expect(fromTwin.body.equals(fromServer.body)).toBe(true);
      // The check can fail: compression's defaults (quality 4, a 4 MiB window) make other bytes.
      expect(fromDefaults.body.equals(fromServer.body)).toBe(false);
    } finally {
      twin.close();
      server.close();
      defaults.close();
    }
  });
});
