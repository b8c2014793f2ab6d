import { Writable } from "node:stream";
import {
  compressPage,
  gzipWithKeptTexts,
  keptText,
  type KeptText,
  type PageEncoding,
} from "./page-compression.server";

type Part = string | Uint8Array;

/**
 * One page as React writes it out (`pipe(page.sink)`), kept as React wrote it: its long texts (the
 * catalogues) as strings and the rest as the small byte views it fills. A plain
 * Writable turns each string into a Buffer of its own (some 70 KiB a signed-in page), and joining the
 * pieces copies them all again (the whole page), each block of the C heap freed only when V8 next
 * collects the objects holding it, which left the server process's heap a hundred megabytes larger
 * than what it held (docs/performance.md, "The server process"). Here the page becomes bytes once,
 * when it is sent.
 */
export function pageOutput() {
  const parts: Part[] = [];
  const sink = new Writable({
    decodeStrings: false,
    write(chunk: Part, _encoding, done) {
      parts.push(chunk);
      done();
    },
  });
  return {
    sink,
    /** How many bytes the page is. */
    byteLength(): number {
      let length = 0;
      for (const part of parts)
        length += typeof part === "string" ? Buffer.byteLength(part, "utf8") : part.byteLength;
      return length;
    },
    /** Writes the page into `target` (at least `byteLength()` long), each string encoded straight in. */
    writeInto(target: Buffer): number {
      let at = 0;
      for (const part of parts) {
        if (typeof part === "string") at += target.write(part, at, "utf8");
        else {
          target.set(part, at);
          at += part.byteLength;
        }
      }
      return at;
    },
    /**
     * The page's pieces for `gzipWithKeptTexts`: the long texts pages repeat as kept texts, and the
     * bytes between them written into `target` (at least `byteLength()` long), each run one view.
     */
    piecesInto(target: Buffer): (Uint8Array | KeptText)[] {
      const pieces: (Uint8Array | KeptText)[] = [];
      let start = 0;
      let at = 0;
      for (const part of parts) {
        const kept = typeof part === "string" ? keptText(part) : undefined;
        if (kept) {
          if (at > start) pieces.push(target.subarray(start, at));
          pieces.push(kept);
          start = at;
        } else if (typeof part === "string") at += target.write(part, at, "utf8");
        else {
          target.set(part, at);
          at += part.byteLength;
        }
      }
      if (at > start) pieces.push(target.subarray(start, at));
      return pieces;
    },
    /** The whole page in one Buffer of its own. */
    bytes(): Buffer<ArrayBuffer> {
      const bytes = Buffer.allocUnsafe(this.byteLength()) as Buffer<ArrayBuffer>;
      this.writeInto(bytes);
      return bytes;
    },
    /** Lets go of what React wrote, once the page's bytes are made. */
    release(): void {
      parts.length = 0;
    },
    /** The whole page as text, for a page to be kept (ADR 15). */
    text(): string {
      return this.bytes().toString("utf8");
    },
  };
}

export type PageOutput = ReturnType<typeof pageOutput>;

/**
 * Where a page's bytes are made to be compressed: one per process, reused by every page. compressPage
 * reads them within one synchronous call and gives back bytes of its own, so nothing outlives the call
 * here. A Buffer of its own for each page (100 to 200 KiB) was freed only when V8 collected the object
 * holding it; with a few requests in flight a young-generation collection often found it still held,
 * and it then waited for a full collection, tens of megabytes of them at once (docs/performance.md,
 * "The server process").
 */
let scratch = Buffer.allocUnsafeSlow(0);

function scratchOf(length: number): Buffer {
  if (scratch.byteLength < length) scratch = Buffer.allocUnsafeSlow(Math.max(length, 256 * 1024));
  return scratch;
}

/** The page's bytes in the shared scratch Buffer: valid until the next page is made into it. */
function scratchBytes(page: PageOutput | string): Buffer {
  if (typeof page === "string") {
    const target = scratchOf(Buffer.byteLength(page, "utf8"));
    return target.subarray(0, target.write(page, 0, "utf8"));
  }
  const target = scratchOf(page.byteLength());
  return target.subarray(0, page.writeInto(target));
}

/**
 * A response body that makes the page's bytes only when it is read, compressed in the same turn when
 * the request takes an encoding (`pageEncoding`): the uncompressed page then lives only within that
 * call, in the shared scratch Buffer, and the compressed bytes from then until their write to the
 * socket is done. Without an encoding the page gets a Buffer of its own, which the socket holds.
 */
export function pageBody(
  page: PageOutput | string,
  encoding: PageEncoding | null = null,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (encoding === null)
          controller.enqueue(typeof page === "string" ? Buffer.from(page, "utf8") : page.bytes());
        else if (encoding === "gzip" && typeof page !== "string")
          controller.enqueue(gzipWithKeptTexts(page.piecesInto(scratchOf(page.byteLength()))));
        else controller.enqueue(compressPage(scratchBytes(page), encoding));
        if (typeof page !== "string") page.release();
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
