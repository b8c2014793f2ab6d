import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { keptText } from "./page-compression.server";
import { pageBody, pageOutput } from "./page-output.server";

async function written(parts: (string | Uint8Array)[]) {
  const page = pageOutput();
  await pipeline(Readable.from(parts, { objectMode: true }), page.sink);
  return page;
}

describe("a page as React writes it out", () => {
  it("gives back the bytes written, strings and byte views in their order, multi-byte text whole", async () => {
    const parts = [
      '<!DOCTYPE html><html dir="rtl">',
      new TextEncoder().encode("<p>أهلا €5</p>"),
      "x".repeat(50_000),
      new Uint8Array(new TextEncoder().encode("ab—cd").buffer, 2, 3),
      "🎮</html>",
    ];
    const page = await written(parts);
    const expected =
      '<!DOCTYPE html><html dir="rtl"><p>أهلا €5</p>' + "x".repeat(50_000) + "—" + "🎮</html>";
    expect(page.bytes().toString("utf8")).toBe(expected);
    expect(page.bytes().byteLength).toBe(Buffer.byteLength(expected));
    expect(page.text()).toBe(expected);
  });

  it("keeps strings as strings until the bytes are asked for", async () => {
    const page = pageOutput();
    page.sink.write("é");
    page.sink.end();
    await new Promise((resolve) => page.sink.on("finish", resolve));
    expect(page.bytes()).toEqual(Buffer.from("é"));
  });

  it("makes the body's bytes when it is read, once, as one chunk", async () => {
    const page = await written(["<p>", "page", "</p>"]);
    let made = 0;
    const bytes = page.bytes.bind(page);
    page.bytes = () => {
      made++;
      return bytes();
    };
    const body = pageBody(page);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(made).toBe(0);
    const chunks = [];
    for await (const chunk of body) chunks.push(chunk);
    expect(made).toBe(1);
    expect(chunks).toHaveLength(1);
    expect(Buffer.isBuffer(chunks[0])).toBe(true);
    expect(Buffer.from(chunks[0]!).toString()).toBe("<p>page</p>");
    expect(await new Response(pageBody("<b>kept é</b>")).text()).toBe("<b>kept é</b>");
  });

  it("compresses the page in the turn that makes its bytes, in one chunk, when an encoding is given", async () => {
    const text = '<html dir="rtl"><p>أهلا</p>' + "<li>row</li>".repeat(5_000) + "</html>";
    const page = await written([text]);
    const chunks = [];
    for await (const chunk of pageBody(page, "br")) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.byteLength).toBeLessThan(Buffer.byteLength(text) / 10);
    expect(brotliDecompressSync(chunks[0]!).toString("utf8")).toBe(text);
    const gzip = [];
    for await (const chunk of pageBody(text, "gzip")) gzip.push(chunk);
    expect(gunzipSync(gzip[0]!).toString("utf8")).toBe(text);
  });

  it("makes compressed pages one after another from one scratch Buffer, each answer whole and its own", async () => {
    // Larger than the scratch Buffer's first size (256 KiB), so it grows; then smaller ones reuse it.
    const big = '<html dir="rtl">' + "<li>سطر é 🎮</li>".repeat(20_000) + "</html>";
    const small = "<p>" + "kept page ".repeat(200) + "</p>";
    const read = async (body: ReadableStream<Uint8Array>) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) chunks.push(chunk);
      return Buffer.concat(chunks);
    };
    const first = await read(pageBody(await written([big]), "br"));
    const second = await read(pageBody(small, "gzip"));
    const third = await read(pageBody(await written(["<p>", "third", "</p>"]), "br"));
    // Each is read after the next was made, so a body that still pointed into the scratch Buffer
    // would read another page's bytes.
    expect(brotliDecompressSync(first).toString("utf8")).toBe(big);
    expect(gunzipSync(second).toString("utf8")).toBe(small);
    expect(brotliDecompressSync(third).toString("utf8")).toBe("<p>third</p>");
  });

  it("lets go of what React wrote once the body is read, compressed or not", async () => {
    for (const encoding of ["br", null] as const) {
      const page = await written(["<p>", new TextEncoder().encode("gone"), "</p>"]);
      expect(page.byteLength()).toBe(11);
      const body = await new Response(pageBody(page, encoding)).arrayBuffer();
      expect(body.byteLength).toBeGreaterThan(0);
      expect(page.byteLength()).toBe(0);
    }
  });

  it("sends a rendered page in gzip with its repeated long texts kept, the page's own bytes compressed each time", async () => {
    const stylesheet = ".row{display:flex}\n".repeat(1_000);
    const read = async (body: ReadableStream<Uint8Array>) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) chunks.push(chunk);
      return Buffer.concat(chunks);
    };
    const pages = ["أهلا", "second é", "third 🎮"].map((name) => [
      "<html><style>",
      stylesheet,
      `</style><p>${name}</p>`,
      new TextEncoder().encode("<li>row</li>".repeat(300)),
      "</html>",
    ]);
    const answers = [];
    for (const parts of pages) answers.push(await read(pageBody(await written(parts), "gzip")));
    // Read after all were made: each answer whole and its own.
    answers.forEach((answer, i) => {
      const expected = pages[i]!.map((part) =>
        typeof part === "string" ? part : Buffer.from(part).toString("utf8"),
      ).join("");
      expect(gunzipSync(answer).toString("utf8")).toBe(expected);
    });
    // From the second page on, the stylesheet's blocks were made once and are sent as they are.
    const kept = keptText(stylesheet)!;
    expect(kept).toBeDefined();
    expect(answers[0]!.includes(kept.deflated)).toBe(false);
    expect(answers[1]!.includes(kept.deflated)).toBe(true);
    expect(answers[2]!.includes(kept.deflated)).toBe(true);
  });
});
