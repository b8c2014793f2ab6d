import compression from "compression";
import { describe, expect, it } from "vitest";
import { responseCompression } from "../../server/response-compression";
import { rawRequest, servePage } from "../../tests/support/raw-http";
import { gunzipSync } from "node:zlib";
import { compressPage, keptText } from "../../app/lib/page-compression.server";
import { bareTwin, splitAtLongTexts } from "./bare-twin";

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

describe("a rendered page's bare twin", () => {
  const style = `.a{color:red}\n`.repeat(900);
  const catalogues = JSON.stringify({ common: { text: "Bonjour à tous ".repeat(700) } });
  const html = `<!DOCTYPE html><html><head><style data-page-style="">${style}</style></head><body><p>${"row ".repeat(3000)}</p><script id="catalogues" type="application/json">${catalogues}</script><script>short()</script></body></html>`;

  it("cuts the page at its long style and script texts, and nowhere else", () => {
    const texts = splitAtLongTexts(html);
    expect(texts).toHaveLength(5);
    expect(texts[1]).toBe(style);
    expect(texts[3]).toBe(catalogues);
    expect(texts.join("")).toBe(html);
    expect(splitAtLongTexts("<p>short</p><script>x()</script>")).toEqual([
      "<p>short</p><script>x()</script>",
    ]);
  });

  it("sends gzip with the long texts kept where the server would, else the page compressed whole", async () => {
    const twin = await bareTwin(html, { rendered: true });
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await rawRequest(`${twin.url}/`, {
          headers: { "accept-encoding": "gzip, deflate, br, zstd" },
        });
        expect(answer.encoding).toBe("gzip");
        expect(gunzipSync(answer.bytes).toString("utf8")).toBe(html);
      }
      // Seen on every request: kept after the second, as a rendered page's are.
      expect(keptText(style)).toBeDefined();
      const brotli = await rawRequest(`${twin.url}/`, { headers: { "accept-encoding": "br" } });
      expect(brotli.encoding).toBe("br");
      expect(brotli.bytes.equals(Buffer.from(compressPage(Buffer.from(html, "utf8"), "br")))).toBe(
        true,
      );
    } finally {
      twin.close();
    }
  });
});
