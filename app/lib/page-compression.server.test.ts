import compression from "compression";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, servePage } from "../../tests/support/raw-http";
import { constants, gunzipSync, gzipSync, inflateRawSync } from "node:zlib";
import {
  compressPage,
  gzipWithKeptTexts,
  KEPT_TEXT_MIN_LENGTH,
  KEPT_TEXTS,
  keptText,
  PAGE_COMPRESSION,
  pageEncoding,
  RENDERED_PREFERRED,
  type KeptText,
} from "./page-compression.server";

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

describe("a rendered page in gzip with kept texts", () => {
  const stylesheet = `.card{border:1px solid #ddd;padding:1rem}\n`.repeat(400);
  // Multi-byte text: a kept text's length in bytes is not its length in characters.
  const catalogues = JSON.stringify({ common: { hello: "مرحبا بكم — bienvenue ".repeat(500) } });
  const bytes = (text: string) => Buffer.from(text, "utf8");
  const keptOf = (text: string) => {
    keptText(text);
    const kept = keptText(text);
    if (!kept) throw new Error("not kept");
    return kept;
  };

  it("keeps a long text from its second sighting on, and never a short one", () => {
    const text = `/* first */${stylesheet}`;
    expect(keptText(text)).toBeUndefined();
    const kept = keptText(text);
    expect(kept?.bytes.equals(bytes(text))).toBe(true);
    // Its blocks hold the text and leave the stream open for what follows them.
    const inflated = inflateRawSync(kept!.deflated, { finishFlush: constants.Z_SYNC_FLUSH });
    expect(inflated.equals(bytes(text))).toBe(true);
    expect(() => inflateRawSync(kept!.deflated)).toThrow(/unexpected end of file/);
    // The same blocks every time after: made once.
    expect(keptText(text)).toBe(kept);
    const short = "x".repeat(KEPT_TEXT_MIN_LENGTH - 1);
    expect(keptText(short)).toBeUndefined();
    expect(keptText(short)).toBeUndefined();
  });

  it("keeps at most KEPT_TEXTS texts, the least recently used going first", () => {
    const texts = Array.from({ length: KEPT_TEXTS + 1 }, (_, i) => `/* ${i} */${stylesheet}`);
    const first = keptOf(texts[0]!);
    for (const text of texts.slice(1, KEPT_TEXTS)) keptOf(text);
    // The first used again: the second is now the least recently used.
    expect(keptText(texts[0]!)).toBe(first);
    keptOf(texts[KEPT_TEXTS]!);
    expect(keptText(texts[0]!)).toBe(first);
    // Gone: seen once more, it is not kept yet.
    expect(keptText(texts[1]!)).toBeUndefined();
  });

  it("decodes to the page, whatever the order of kept texts and bytes", () => {
    const style = keptOf(stylesheet);
    const texts = keptOf(catalogues);
    const head = bytes("<!DOCTYPE html><html><head><style>");
    const middle = bytes(`</style></head><body>${"<p>Service 1</p>".repeat(300)}<script>`);
    const tail = bytes("</script></body></html>");
    const cases: (Uint8Array | KeptText)[][] = [
      [head, style, middle, texts, tail],
      [style, middle, texts],
      [head, style, texts, tail],
      [style, texts],
      [style],
      [head],
      [],
    ];
    for (const pieces of cases) {
      const expected = Buffer.concat(
        pieces.map((piece) => (piece instanceof Uint8Array ? piece : piece.bytes)),
      );
      const made = gzipWithKeptTexts(pieces);
      // zlib's own check of the whole stream: header, blocks, CRC-32 and length.
      expect(gunzipSync(made).equals(expected), `${pieces.length} pieces`).toBe(true);
      expect(made.byteOffset).toBe(0);
      expect(made.buffer.byteLength).toBe(made.byteLength);
    }
  });

  it("comes out about as small as the page in gzip whole, and the kept texts are not compressed again", () => {
    const style = keptOf(stylesheet);
    const rows = bytes(
      Array.from({ length: 400 }, (_, i) => `<tr><td>${i}</td><td>Service ${i * 7}</td></tr>`).join(
        "",
      ),
    );
    const page = Buffer.concat([rows, style.bytes, rows]);
    const spliced = gzipWithKeptTexts([rows, style, rows]);
    expect(spliced.byteLength).toBeLessThan(gzipSync(page, { level: 3 }).byteLength * 1.1);
    // The kept text's blocks are in the answer as they were made.
    expect(spliced.includes(style.deflated)).toBe(true);
  });

  it.each([
    ["gzip, deflate, br, zstd", "gzip"],
    ["gzip, deflate, br", "gzip"],
    ["br, gzip", "gzip"],
    ["br", "br"],
    ["br;q=1, gzip;q=0.5", "br"],
    ["gzip;q=0.5, br;q=0.5", "gzip"],
    ["deflate", "deflate"],
    ["gzip;q=0, br", "br"],
    ["identity", null],
  ])("sends a rendered page for Accept-Encoding %j in %s", (accept, encoding) => {
    const request = new Request("http://hostfront.test/dashboard", {
      headers: { "accept-encoding": accept },
    });
    expect(pageEncoding(request, new Headers(), RENDERED_PREFERRED)).toBe(encoding);
  });
});
