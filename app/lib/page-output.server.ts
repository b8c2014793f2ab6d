import { Writable } from "node:stream";
import { compressPage, type PageEncoding } from "./page-compression.server";

type Part = string | Uint8Array;

/**
 * One page as React writes it out (`pipe(page.sink)`), kept as React wrote it: its long texts (the
 * stylesheet, the catalogues) as strings and the rest as the small byte views it fills. A plain
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
    /** The whole page in one Buffer, each string encoded straight into it. */
    bytes(): Buffer<ArrayBuffer> {
      let length = 0;
      for (const part of parts)
        length += typeof part === "string" ? Buffer.byteLength(part, "utf8") : part.byteLength;
      const bytes = Buffer.allocUnsafe(length) as Buffer<ArrayBuffer>;
      let at = 0;
      for (const part of parts) {
        if (typeof part === "string") at += bytes.write(part, at, "utf8");
        else {
          bytes.set(part, at);
          at += part.byteLength;
        }
      }
      return bytes;
    },
    /** The whole page as text, for a page to be kept (ADR 15). */
    text(): string {
      return this.bytes().toString("utf8");
    },
  };
}

export type PageOutput = ReturnType<typeof pageOutput>;

/**
 * A response body that makes the page's bytes only when it is read, compressed in the same turn when
 * the request takes an encoding (`pageEncoding`): the page's one Buffer lives only within that turn,
 * and the compressed bytes from then until their write to the socket is done.
 */
export function pageBody(
  page: PageOutput | string,
  encoding: PageEncoding | null = null,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const bytes = typeof page === "string" ? Buffer.from(page, "utf8") : page.bytes();
        controller.enqueue(compressPage(bytes, encoding));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
