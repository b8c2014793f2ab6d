import { crc32 } from "node:zlib";
import sharp from "sharp";

// Proof files for tests of top-up requests (docs/payments.md#proof-files), made here rather than kept as
// binary fixtures: each says in its code what it is.

/** A file as a form sends it to markTopUpPaid. */
export interface TestUpload {
  name: string;
  bytes: Uint8Array;
}

/** A small PNG of one colour (a different colour is a different file, and hash). */
export async function pngProof(
  name = "receipt.png",
  options: { width?: number; height?: number; colour?: string } = {},
): Promise<TestUpload> {
  const bytes = await sharp({
    create: {
      width: options.width ?? 64,
      height: options.height ?? 48,
      channels: 3,
      background: options.colour ?? "#1d4ed8",
    },
  })
    .png()
    .toBuffer();
  return { name, bytes };
}

/** A WebP image of one colour (a few hundred bytes whatever its size). */
export async function webpProof(
  name = "capture.webp",
  options: { width?: number; height?: number } = {},
): Promise<TestUpload> {
  const bytes = await sharp({
    create: {
      width: options.width ?? 64,
      height: options.height ?? 48,
      channels: 3,
      background: "#15803d",
    },
  })
    .webp({ lossless: true })
    .toBuffer();
  return { name, bytes };
}

/**
 * A JPEG photo as a phone writes it: 60 × 30 pixels stored on its side with EXIF orientation 6 (turn it
 * a quarter right to show it), a camera's make and model, the photographer's name and a GPS position.
 */
export async function phoneJpeg(name = "IMG_0042.jpg"): Promise<TestUpload> {
  const bytes = await sharp({
    create: { width: 60, height: 30, channels: 3, background: "#dc2626" },
  })
    .jpeg()
    .withMetadata({
      orientation: 6,
      exif: {
        IFD0: { Make: "Phone Maker", Model: "Model X", Artist: "Amine El Idrissi" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "33/1 35/1 0/1" },
      },
    })
    .toBuffer();
  return { name, bytes };
}

/**
 * A decompression bomb: a PNG of a few hundred bytes whose header declares `width` × `height` pixels
 * (20000 × 20000 = 400 megapixels, 1.6 GB to decode), its header's checksum made right so only the
 * size gives it away.
 */
export async function pixelBomb(
  name = "bomb.png",
  { width = 20_000, height = 20_000 } = {},
): Promise<TestUpload> {
  const bytes = Buffer.from((await pngProof(name, { width: 8, height: 8 })).bytes);
  // IHDR: length (8), "IHDR" (12), width (16), height (20), ..., its CRC over type and data (29).
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return { name, bytes };
}

/** A whole (if tiny) PDF: its header, one empty page, its cross-reference table, %%EOF. */
export function pdfProof(name = "virement.pdf", note = "Hostfront proof"): TestUpload {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Title (${note}) >>`,
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return { name, bytes: new TextEncoder().encode(body) };
}

/** An HTML page that would run a script in the site's origin if it were ever served as HTML. */
export function htmlFile(name = "receipt.png"): TestUpload {
  return {
    name,
    bytes: new TextEncoder().encode("<!doctype html><script>alert(document.cookie)</script>"),
  };
}

/** A PNG signature followed by `size` bytes in all: too big before it is read. */
export function oversizedPng(size: number, name = "huge.png"): TestUpload {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { name, bytes };
}

/**
 * A multipart form as a browser's "I have paid" sends it: the fields, then each file, every one labelled
 * image/png by the "browser" (the server never reads that label).
 */
export function uploadForm(fields: Record<string, string>, files: TestUpload[]): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  for (const file of files)
    form.append("proofs", new File([new Uint8Array(file.bytes)], file.name, { type: "image/png" }));
  return form;
}
