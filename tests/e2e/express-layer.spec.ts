import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { rawRequest } from "../support/raw-http";
import { expect, test } from "./fixtures";

// What the Express layer in front of React Router answers (server/index.ts, server/app.ts): the parts
// the integration tests' harness leaves out. Plain HTTP, no browser.

test("/healthz answers ok while the database answers", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
});

test("static files are served, hashed assets for a year, and nothing outside the client folder", async ({
  request,
}) => {
  const home = await (await request.get("/login")).text();
  // The page's stylesheet (an anonymous visitor's page has no script file of its own, ADR 13).
  const asset = /\/assets\/[^"']+\.css/.exec(home)?.[0];
  expect(asset, "a file of the build on the page").toBeTruthy();
  const file = await request.get(asset!);
  expect(file.status()).toBe(200);
  expect(file.headers()["cache-control"]).toContain("immutable");
  expect((await request.get("/favicon.svg")).status()).toBe(200);

  // The server build sits next to the client folder; no spelling of a way up reaches it.
  for (const path of [
    "/assets/%2e%2e/%2e%2e/server/index.js",
    "/%2e%2e/server/index.js",
    "/..%2fserver%2findex.js",
    "/assets/..%5c..%5cserver%5cindex.js",
    "/assets/%252e%252e/%252e%252e/server/index.js",
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBeLessThan(500);
    expect(response.status(), path).not.toBe(200);
    expect(await response.text(), path).not.toContain("createRequestHandler");
  }
});

test("odd requests get a plain answer, never a server error", async ({ request }) => {
  const head = await request.head("/");
  expect(head.status()).toBe(200);
  for (const path of [
    `/${"a".repeat(8000)}`,
    "/%E0%A4%A",
    "/support/%00",
    "/services/%ff",
    "/dashboard?tab=%E0%A4%A",
    "/?lang=%ff%fe",
  ]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBeLessThan(500);
    expect(await response.text(), path).not.toMatch(/\bat [^\s]+ \(?[^\s)]+\.(?:ts|js):\d+/);
  }
});

test("a post from another site is refused before any route runs", async ({ request }) => {
  const crossSite: Record<string, string>[] = [
    { "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site" },
    { origin: "https://evil.example" },
    { origin: "null" },
  ];
  for (const headers of crossSite) {
    const response = await request.post("/contact", {
      headers,
      form: { name: "Eve", email: "eve@example.com", subject: "Hi", message: "Cross-site" },
      maxRedirects: 0,
    });
    expect(response.status(), JSON.stringify(headers)).toBe(403);
  }
  const sameSite = await request.post("/newsletter", {
    headers: { "sec-fetch-site": "same-origin" },
    form: { email: "not-an-email" },
  });
  expect(sameSite.status()).toBe(400);
});

// The server render compresses the pages it makes itself (app/lib/page-compression.server.ts), and the
// compression middleware passes them through: each page is encoded once, in what the request accepts.
// A kept visitor page is compressed whole, as the middleware would (brotli first); a page rendered for
// the request goes out in gzip where the request takes it as readily, its long texts kept (ADR 46).
test("pages come compressed once, in the encoding the browser accepts, and say so in Vary", async ({
  baseURL,
}) => {
  const decode = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync } as const;
  // Kept from here on (ADR 15) by every server process: the first request each takes renders it, and the
  // cluster hands connections to its processes in turn.
  for (let i = 0; i < 4; i++)
    await rawRequest(`${baseURL}/login`, { headers: { "accept-encoding": "br" } });
  let fresh = 0;
  const cases = [
    { path: () => "/login", rendered: false },
    // Rendered afresh for each request: a query string of its own.
    { path: () => `/login?utm_content=${Date.now()}-${fresh++}`, rendered: true },
  ];
  for (const { path: pathOf, rendered } of cases) {
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", rendered ? "gzip" : "br"],
      ["br", "br"],
      ["gzip, deflate", "gzip"],
      ["deflate", "deflate"],
    ] as const) {
      const path = pathOf();
      const answer = await rawRequest(`${baseURL}${path}`, {
        headers: { "accept-encoding": accept },
      });
      expect(answer.status, path).toBe(200);
      expect(answer.headers["content-encoding"], `${path} ${accept}`).toBe(encoding);
      const vary = String(answer.headers.vary)
        .split(",")
        .map((v) => v.trim().toLowerCase());
      expect(
        vary.filter((v) => v === "accept-encoding"),
        `${path} Vary`,
      ).toHaveLength(1);
      const html = decode[encoding](answer.bytes).toString("utf8");
      expect(html.startsWith("<!DOCTYPE html>"), `${path} ${accept}`).toBe(true);
      expect(html.trimEnd().endsWith("</html>"), `${path} ${accept}`).toBe(true);
    }
    const path = pathOf();
    const plain = await rawRequest(`${baseURL}${path}`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.bytes.toString("utf8").startsWith("<!DOCTYPE html>")).toBe(true);
    const head = await rawRequest(`${baseURL}${path}`, {
      headers: { "accept-encoding": "br" },
      method: "HEAD",
    });
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBeUndefined();
    expect(head.bytes.byteLength).toBe(0);
  }
});
