import { describe, expect, it } from "vitest";
import { multipartBoundary, parseMultipart } from "./multipart.server";

/** `form` as a browser (here undici) sends it: its body and its boundary. */
async function sent(form: FormData) {
  const request = new Request("http://localhost/x", { method: "POST", body: form });
  const boundary = multipartBoundary(request.headers.get("content-type") ?? "");
  return { body: new Uint8Array(await request.arrayBuffer()), boundary: boundary! };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const ascii = (value: string) => new TextEncoder().encode(value);

describe("parseMultipart", () => {
  it("reads every part as sent: fields, files with any name, bytes that look like a boundary", async () => {
    const form = new FormData();
    form.set("intent", "paid");
    form.set("note", "ligne 1\r\nligne 2 — مرحبا");
    // Bytes holding a line end, dashes and most of the boundary's start, and every byte value.
    const tricky = new Uint8Array([
      13,
      10,
      45,
      45,
      13,
      10,
      45,
      ...Array.from({ length: 256 }, (_, i) => i),
    ]);
    form.append("proofs", new File([tricky], 'reçu "mai"\r\n.png', { type: "image/png" }));
    form.append("proofs", new File([], ""));
    const { body, boundary } = await sent(form);
    const parts = parseMultipart(body, boundary)!;
    expect(parts.map(({ name, filename }) => [name, filename])).toEqual([
      ["intent", null],
      ["note", null],
      ["proofs", 'reçu "mai"\r\n.png'],
      ["proofs", ""],
    ]);
    expect(text(parts[0]!.data)).toBe("paid");
    expect(text(parts[1]!.data)).toBe("ligne 1\r\nligne 2 — مرحبا");
    expect([...parts[2]!.data]).toEqual([...tricky]);
    expect(parts[3]!.data.length).toBe(0);
    // A view of the body, not a copy.
    expect(parts[2]!.data.buffer).toBe(body.buffer);
  });

  it("skips a preamble before the first boundary", () => {
    const body = ascii(
      'ignored\r\n--b1\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--b1--\r\n',
    );
    expect(parseMultipart(body, "b1")?.map((part) => [part.name, text(part.data)])).toEqual([
      ["a", "x"],
    ]);
  });

  it("refuses a body it cannot read whole", () => {
    const part = '--b1\r\nContent-Disposition: form-data; name="a"\r\n\r\nx';
    for (const body of [
      `${part}`, // no closing boundary
      `${part}\r\n--b2--`, // another boundary
      '--b1\r\nContent-Disposition: form-data; name="a"', // headers never end
      "--b1\r\nContent-Type: text/plain\r\n\r\nx\r\n--b1--", // no disposition
      "--b1\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b1--", // no name
      "--b1junk", // neither a part nor the end
      "nothing at all",
    ])
      expect(parseMultipart(ascii(body), "b1"), body).toBeNull();
  });
});

describe("multipartBoundary", () => {
  it("reads the boundary, quoted or not, of a multipart form only", () => {
    expect(multipartBoundary("multipart/form-data; boundary=----abc123")).toBe("----abc123");
    expect(multipartBoundary('Multipart/Form-Data;boundary="a b:c"; charset=utf-8')).toBe("a b:c");
    expect(multipartBoundary("multipart/mixed; boundary=x")).toBeNull();
    expect(multipartBoundary("application/x-www-form-urlencoded")).toBeNull();
    expect(multipartBoundary("multipart/form-data")).toBeNull();
    expect(multipartBoundary(`multipart/form-data; boundary=${"x".repeat(71)}`)).toBeNull();
  });
});
