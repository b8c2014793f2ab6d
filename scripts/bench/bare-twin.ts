import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { responseCompression } from "../../server/response-compression";

/**
 * A page's bare twin (issue 23): a bare Express handler that answers every request with the same bytes
 * through the server's own compression middleware (server/index.ts), so the twin does the same work per
 * byte as the app and the difference between the two is the app's. Until session 43 the twin used
 * compression's defaults (brotli quality 4, a 4 MiB window) where the server compresses pages at quality
 * 3 (PAGE_COMPRESSION): three times the work on a signed-in page, a twin's p95 of 14 to 20 ms instead
 * of 5 to 7, and so a dashboard budget three times too loose.
 */
export async function bareTwin(bytes: string): Promise<{ url: string; close: () => void }> {
  const app = express();
  app.use(responseCompression());
  app.use((_req, res) => res.type("text/html").send(bytes));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}
