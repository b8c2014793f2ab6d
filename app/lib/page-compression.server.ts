import Negotiator from "negotiator";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";

/**
 * How pages (HTML and React Router's `.data`) are compressed: made afresh for each request, so each is
 * compressed afresh. Brotli quality 3 with a 256 KiB window and gzip level 3 cost about half of
 * compression's defaults (quality 4 with a 4 MiB window, level 6) for some 5% more bytes on a signed-in
 * page (docs/performance.md, "Signed-in page CPU"; ADR 30). No page comes near 256 KiB, so the
 * smaller window loses nothing.
 */
export const PAGE_COMPRESSION = {
  level: 3,
  brotli: {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 3,
      [constants.BROTLI_PARAM_LGWIN]: 18,
    },
  },
} as const;

export type PageEncoding = "br" | "gzip" | "deflate";

// The compression middleware's own lists (compression 1.8, with Node's brotli), so that a page it
// compresses here is sent in the encoding the middleware would have chosen.
const SUPPORTED = ["br", "gzip", "deflate", "identity"];
const PREFERRED = ["br", "gzip"];

/**
 * The encoding a rendered page is sent in, chosen as the compression middleware chooses it
 * (server/response-compression.ts): none for a HEAD request or a response marked `no-transform`,
 * else the best the request accepts, brotli and then gzip first on a tie.
 */
export function pageEncoding(request: Request, headers: Headers): PageEncoding | null {
  if (request.method === "HEAD") return null;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get("cache-control") ?? "")) return null;
  const accept = request.headers.get("accept-encoding");
  if (!accept) return null;
  const chosen = new Negotiator({ headers: { "accept-encoding": accept } }).encoding(
    SUPPORTED,
    PREFERRED,
  );
  return chosen === "br" || chosen === "gzip" || chosen === "deflate" ? chosen : null;
}

/**
 * A page's bytes compressed in one synchronous call, with the page settings. The compression
 * middleware does the same work as a stream on libuv's thread pool: each page then waited for a pool
 * thread to be given a core and for its answer to come back to the main thread, which on a busy
 * two-core machine put tens of milliseconds into the tail of every signed-in page (issue 23,
 * docs/performance.md). A page's 100 to 200 KiB take a third of a millisecond at these settings.
 */
export function compressPage(bytes: Uint8Array, encoding: PageEncoding | null): Uint8Array {
  switch (encoding) {
    case "br":
      return ownBytes(brotliCompressSync(bytes, { params: PAGE_COMPRESSION.brotli.params }));
    case "gzip":
      return ownBytes(gzipSync(bytes, { level: PAGE_COMPRESSION.level }));
    case "deflate":
      return ownBytes(deflateSync(bytes, { level: PAGE_COMPRESSION.level }));
    default:
      return bytes;
  }
}

/**
 * The compressed page in memory of its own, exactly its size. zlib's answer is a slice of the 16 KiB
 * pieces it writes into, which come from Node's shared pool of small Buffers: since Node 24 a slab of
 * 64 KiB, kept whole for as long as any slice of it is, so each page in flight held 64 KiB until its
 * write to the socket was done, and past a young-generation collection until a full one
 * (docs/performance.md, "The server process"). The copy is some 20 KiB.
 */
function ownBytes(compressed: Buffer): Buffer {
  const own = Buffer.allocUnsafeSlow(compressed.byteLength);
  compressed.copy(own);
  return own;
}
