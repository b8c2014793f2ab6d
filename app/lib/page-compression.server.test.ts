import compression from "compression";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, servePage } from "../../tests/support/raw-http";
import { compressPage, PAGE_COMPRESSION, pageEncoding } from "./page-compression.server";

/** What the compression middleware, with the page settings, sends for the page. */
const middlewareAnswer = (base: string, acceptEncoding: string | undefined) =>
  rawRequest(`${base}/`, {
    headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
  });

// Enough markup that compression runs and its settings show in the bytes.
const page = Array.from(
  { length: 600 },
  (_, i) => `<tr><td>${i}</td><td>Service ${(i * 7919) % 1000}</td><td>${i % 28}</td></tr>`,
).join("\n");

describe("a page compressed by the server render", () => {
  let base = "";
  let close: () => void = () => {};
  beforeAll(async () => {
    const served = await servePage(compression(PAGE_COMPRESSION), page);
    base = served.url;
    close = served.close;
  });
  afterAll(() => close());

  const requestWith = (acceptEncoding: string | undefined, method = "GET") =>
    new Request("http://hostfront.test/dashboard", {
      method,
      headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
    });

  it.each([
    ["gzip, deflate, br"],
    ["gzip, deflate, br, zstd"],
    ["gzip, deflate"],
    ["gzip"],
    ["deflate"],
    ["br"],
    ["deflate, gzip"],
    ["br;q=0.5, gzip"],
    ["gzip;q=0.2, deflate;q=0.9"],
    ["br;q=0.3, gzip;q=0.3"],
    ["*"],
    ["identity"],
    ["gzip;q=0, br;q=0, deflate;q=0"],
    ["compress"],
    [""],
  ])("chooses for Accept-Encoding %j what the compression middleware chooses", async (accept) => {
    const answer = await middlewareAnswer(base, accept);
    expect(pageEncoding(requestWith(accept), new Headers())).toBe(answer.encoding ?? null);
  });

  it("sends a request with no Accept-Encoding, a HEAD request and a no-transform page as they are", async () => {
    expect((await middlewareAnswer(base, undefined)).encoding).toBeUndefined();
    expect(pageEncoding(requestWith(undefined), new Headers())).toBeNull();
    expect(pageEncoding(requestWith("gzip, br", "HEAD"), new Headers())).toBeNull();
    const noTransform = new Headers({ "Cache-Control": "private, no-transform" });
    expect(pageEncoding(requestWith("gzip, br"), noTransform)).toBeNull();
    expect(
      pageEncoding(requestWith("gzip, br"), new Headers({ "Cache-Control": "private, no-store" })),
    ).toBe("br");
  });

  it("makes the bytes the middleware makes with the page settings", async () => {
    const bytes = Buffer.from(page);
    for (const encoding of ["br", "gzip", "deflate"] as const) {
      const answer = await middlewareAnswer(base, encoding);
      expect(answer.encoding).toBe(encoding);
      const made = Buffer.from(compressPage(bytes, encoding));
      // A gzip header carries a time and the system it was made on; the rest is the same.
      const from = encoding === "gzip" ? 10 : 0;
      expect(made.subarray(from).equals(answer.bytes.subarray(from))).toBe(true);
    }
    expect(compressPage(bytes, null)).toBe(bytes);
  });

  it("gives the compressed page memory of its own, exactly its size, not a slice of Node's shared pool", () => {
    // A small page compresses into one of zlib's 16 KiB pieces, which come from Node's pool of small
    // Buffers (a 64 KiB slab since Node 24); the answer held the whole slab until its write was done.
    const small = Buffer.from("<!DOCTYPE html><p>" + "row ".repeat(500) + "</p>");
    for (const encoding of ["br", "gzip", "deflate"] as const) {
      const made = compressPage(small, encoding);
      expect(made.byteOffset, encoding).toBe(0);
      expect(made.buffer.byteLength, encoding).toBe(made.byteLength);
    }
  });
});
