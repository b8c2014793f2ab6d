import compression from "compression";
import { describe, expect, it } from "vitest";
import { responseCompression } from "../../server/response-compression";
import { rawRequest, servePage } from "../../tests/support/raw-http";
import { bareTwin } from "./bare-twin";

/** What an origin sends for "/" to a client that accepts brotli, not decoded. */
const rawBody = (origin: string) =>
  rawRequest(`${origin}/`, { headers: { "accept-encoding": "br" } });

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
    const server = await servePage(responseCompression(), page);
    const defaults = await servePage(compression(), page);
    try {
      const fromTwin = await rawBody(twin.url);
      const fromServer = await rawBody(server.url);
      const fromDefaults = await rawBody(defaults.url);
      expect(fromTwin.encoding).toBe("br");
      expect(fromTwin.bytes.equals(fromServer.bytes)).toBe(true);
      // The check can fail: compression's defaults (quality 4, a 4 MiB window) make other bytes.
      expect(fromDefaults.bytes.equals(fromServer.bytes)).toBe(false);
    } finally {
      twin.close();
      server.close();
      defaults.close();
    }
  });
});
