import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in for our own webhook endpoint, for tests of a provider's double on its own: it records
// each notification posted to it (lower-case headers, the raw body) and answers as scripted.

export interface ReceivedNotification {
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedNotification[];
  /** The next answers' statuses, in order (then 200). */
  answer(...statuses: number[]): void;
  close(): Promise<void>;
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedNotification[] = [];
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: flatten(req.headers), body: Buffer.concat(chunks).toString() });
      res.writeHead(statuses.shift() ?? 200);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/payments/paypal`,
    received,
    answer: (...next) => void statuses.push(...next),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
