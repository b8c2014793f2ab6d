import { request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";

/**
 * An HTTP answer as it was sent: its status, headers and body bytes, not decoded (fetch would undo the
 * compression that the tests of compression look at).
 */
export function rawRequest(
  url: string,
  options: { headers?: Record<string, string>; method?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; encoding?: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          encoding: res.headers["content-encoding"],
          bytes: Buffer.concat(chunks),
        }),
      );
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

/** A page of HTML served through `middleware` (a compression setting) on loopback, for every path. */
export async function servePage(
  middleware: express.RequestHandler,
  html: string,
): Promise<{ url: string; close: () => void }> {
  const app = express();
  app.use(middleware);
  app.use((_req, res) => res.type("text/html").send(html));
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}
