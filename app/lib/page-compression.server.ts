import Negotiator from "negotiator";
import {
  brotliCompressSync,
  constants,
  crc32,
  deflateRawSync,
  deflateSync,
  gzipSync,
} from "node:zlib";

/**
 * How pages (HTML and React Router's `.data`) are compressed: made afresh for each request, so each is
 * compressed afresh. Brotli quality 3 with a 256 KiB window and gzip level 3 cost about half of
 * compression's defaults (quality 4 with a 4 MiB window, level 6) for some 5% more bytes on a signed-in
 * page (ADR 30; measured: git log -p docs/performance.md, "Signed-in page CPU"). No page comes near 256 KiB, so the
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
 * A page the server has just rendered goes out in gzip when the request takes gzip as readily as
 * brotli: its long repeated texts are then compressed once for the process (`gzipWithKeptTexts`).
 */
export const RENDERED_PREFERRED = ["gzip", "br"];

/**
 * The encoding a page is sent in, chosen as the compression middleware chooses it
 * (server/response-compression.ts): none for a HEAD request or a response marked `no-transform`,
 * else the best the request accepts, and on a tie the first of `preferred` (the middleware's own:
 * brotli, then gzip; a freshly rendered page's: `RENDERED_PREFERRED`).
 */
export function pageEncoding(
  request: Request,
  headers: Headers,
  preferred: readonly string[] = PREFERRED,
): PageEncoding | null {
  if (request.method === "HEAD") return null;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get("cache-control") ?? "")) return null;
  const accept = request.headers.get("accept-encoding");
  if (!accept) return null;
  const chosen = new Negotiator({ headers: { "accept-encoding": accept } }).encoding(SUPPORTED, [
    ...preferred,
  ]);
  return chosen === "br" || chosen === "gzip" || chosen === "deflate" ? chosen : null;
}

/**
 * A page's bytes compressed in one synchronous call, with the page settings. The compression
 * middleware does the same work as a stream on libuv's thread pool: each page then waited for a pool
 * thread to be given a core and for its answer to come back to the main thread, which on a busy
 * two-core machine put tens of milliseconds into the tail of every signed-in page (measured: git log -p
 * docs/performance.md, "Server").
 * A page's 100 to 200 KiB take a third of a millisecond at these settings.
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

/** A long text many pages repeat, as bytes and as deflate blocks made once (`keptText`). */
export interface KeptText {
  bytes: Buffer;
  /** Deflate blocks of the text alone, ending on a byte boundary without closing the stream. */
  deflated: Buffer;
}

/** Texts shorter than this are compressed with the page: only the sets of catalogues are kept. */
export const KEPT_TEXT_MIN_LENGTH = 8192;
/** Kept texts, least recently used first out: each language's sets of catalogues. */
export const KEPT_TEXTS = 64;

const keptTexts = new Map<string, KeptText>();
// A text seen once, by its length and ends: kept only when seen again, so that a long text of one
// page's own (a big table's data) is compressed with its page and never costs a slow compression.
const sightings = new Set<string>();

/**
 * The text's kept deflate blocks when pages repeat it (a set of catalogues: React
 * writes each long text as the same string every time), else undefined.
 */
export function keptText(text: string): KeptText | undefined {
  if (text.length < KEPT_TEXT_MIN_LENGTH) return undefined;
  const kept = keptTexts.get(text);
  if (kept) {
    keptTexts.delete(text);
    keptTexts.set(text, kept);
    return kept;
  }
  const sighting = `${text.length}:${text.slice(0, 64)}:${text.slice(-64)}`;
  if (!sightings.has(sighting)) {
    if (sightings.size >= 4 * KEPT_TEXTS) sightings.clear();
    sightings.add(sighting);
    return undefined;
  }
  sightings.delete(sighting);
  const bytes = Buffer.from(text, "utf8");
  const made: KeptText = {
    bytes,
    deflated: ownBytes(
      deflateRawSync(bytes, {
        level: constants.Z_BEST_COMPRESSION,
        finishFlush: constants.Z_SYNC_FLUSH,
      }),
    ),
  };
  if (keptTexts.size >= KEPT_TEXTS) keptTexts.delete(keptTexts.keys().next().value!);
  keptTexts.set(text, made);
  return made;
}

// gzip's header (RFC 1952): deflate, no flags, no time, no extra flags, made on Unix, as zlib writes it.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
// A last, empty block: what ends the stream when it ends with a kept text.
const LAST_BLOCK = deflateRawSync(Buffer.alloc(0), { finishFlush: constants.Z_FINISH });

/**
 * A page in gzip from its pieces in order: its own bytes, compressed now with the page settings, and
 * kept texts, whose deflate blocks were made once. Each piece is deflated on its own and ends on a byte
 * boundary, so the blocks follow one another as one deflate stream; no piece refers back into another.
 * What is lost is the matches between pieces, and a signed-in page comes out about as small as in
 * brotli at quality 3 at a third to a half of its CPU (ADR 46; measured: git log -p docs/performance.md,
 * "Signed-in page CPU").
 */
export function gzipWithKeptTexts(pieces: readonly (Uint8Array | KeptText)[]): Buffer {
  const blocks: Uint8Array[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  pieces.forEach((piece, index) => {
    const last = index === pieces.length - 1;
    if (piece instanceof Uint8Array) {
      crc = crc32(piece, crc);
      length += piece.byteLength;
      blocks.push(
        deflateRawSync(piece, {
          level: PAGE_COMPRESSION.level,
          finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
        }),
      );
    } else {
      crc = crc32(piece.bytes, crc);
      length += piece.bytes.byteLength;
      blocks.push(piece.deflated);
      if (last) blocks.push(LAST_BLOCK);
    }
  });
  if (pieces.length === 0) blocks.push(LAST_BLOCK);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  // ISIZE: the length modulo 2^32.
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  blocks.push(trailer);
  const size = blocks.reduce((sum, block) => sum + block.byteLength, 0);
  const own = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const block of blocks) {
    own.set(block, at);
    at += block.byteLength;
  }
  return own;
}
