import { Writable } from "node:stream";

type Part = string | Uint8Array;

/**
 * One page as React writes it out (`pipe(page.sink)`), kept as React wrote it: its long texts (the
 * stylesheet, the catalogues) as strings and the rest as the small byte views it fills. A plain
 * Writable turns each string into a Buffer of its own, and joining the pieces copies them all again:
 * three page-sized blocks of the C heap for every page, each freed only when V8 next collects the
 * objects holding it, which left the server process's heap a hundred megabytes larger than what it
 * held (docs/performance.md, "The server process"). Here the page becomes bytes once, when it is sent.
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
 * A response body that makes the page's bytes only when it is read: the one Buffer lives from the
 * moment it is written to the socket until that write is done.
 */
export function pageBody(page: PageOutput | string): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.enqueue(typeof page === "string" ? Buffer.from(page, "utf8") : page.bytes());
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
