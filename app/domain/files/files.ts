import { numberFormat } from "~/lib/intl-format";

// Files people send (the top-ups' proofs, docs/payments.md#proof-files; the tickets' attachments,
// docs/self-service.md#files-with-tickets): how a file's type is read from its content, the names files
// are stored under, and the limits images are held to. Pure and safe in the browser (a page says the
// same limits the server checks). Each area says which of these types it takes.

/** The binary types a file may have, decided by its first bytes, never by its name or the browser. */
export const SIGNED_FILE_TYPES = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "application/pdf",
] as const;
export type SignedFileType = (typeof SIGNED_FILE_TYPES)[number];
/** Every type a stored file may have: the signed ones, and plain text (read as UTF-8, not signed). */
export type StoredFileType = SignedFileType | "text/plain";
export type ImageType = Exclude<SignedFileType, "application/pdf">;

/** Each signed type's extension, which a stored name gets whatever the sent name said. */
export const SIGNED_EXTENSIONS = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "application/pdf": "pdf",
} as const satisfies Record<SignedFileType, string>;

/**
 * The extensions a sent name may end with and the type each stands for: a name that says one of these
 * says what its content should be.
 */
export const KNOWN_EXTENSIONS: Readonly<Record<string, StoredFileType>> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  pdf: "application/pdf",
  txt: "text/plain",
  log: "text/plain",
};

/**
 * The most pixels an image may declare (16 megapixels: a screenshot is a few, a phone's photo 12 at its
 * usual size, 4032 × 3024). A JPEG or a PNG is read and written again a band at a time (about 20 MB
 * whatever its size; 55 MB for a photo turned by its EXIF orientation, which needs it whole), but a small
 * file declaring 20000 × 20000 is refused before it is decoded all the same (a decompression bomb).
 */
export const MAX_IMAGE_PIXELS = 16_000_000;
/**
 * A WebP's ceiling: libwebp decodes and encodes a whole image at once, about 15 bytes a pixel (measured:
 * 244 MB for 16 megapixels), so a WebP is held to what a screenshot needs (5 megapixels: 1440 × 3200 is
 * 4.6).
 */
export const MAX_WEBP_PIXELS = 5_000_000;

/** The most pixels an image of `type` may declare. */
export function maxPixelsOf(type: SignedFileType): number {
  return type === "image/webp" ? MAX_WEBP_PIXELS : MAX_IMAGE_PIXELS;
}

/** How near its end a PDF must say %%EOF (the bytes after it are line ends or junk a viewer ignores). */
export const PDF_EOF_WINDOW = 1024;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The type a file's first bytes say, or null for anything else (HTML, an executable, a GIF, text, an
 * empty file). The signatures: JPEG FF D8 FF; PNG's eight bytes; WebP a RIFF container of type WEBP; PDF
 * "%PDF-" at the very start (a viewer would look further in; a file that hides it after other bytes is
 * refused).
 */
export function signedTypeOf(bytes: Uint8Array): SignedFileType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(bytes, ascii("%PDF-"))) return "application/pdf";
  return null;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Whether a file is plain text: not empty, valid UTF-8 from end to end (a server's log, a config), and
 * without a NUL byte, which no text has and every binary format does.
 */
export function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes.includes(0)) return false;
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Whether a PDF ends as one does: "%%EOF" within its last PDF_EOF_WINDOW bytes (not cut short). */
export function pdfLooksComplete(bytes: Uint8Array): boolean {
  const marker = ascii("%%EOF");
  const from = Math.max(0, bytes.length - PDF_EOF_WINDOW);
  for (let i = bytes.length - marker.length; i >= from; i--)
    if (startsWith(bytes, marker, i)) return true;
  return false;
}

export function isImageType(type: StoredFileType): type is ImageType {
  return type.startsWith("image/");
}

/**
 * A sent file name as it may be shown and stored: its last path part, without control and format
 * characters (a right-to-left override could make "fdp.exe" read as "exe.pdf"), quotes and the
 * characters file systems refuse, spaces collapsed, no leading dots. May be empty.
 */
export function cleanFileName(sent: string): string {
  return (sent.split(/[/\\]/).at(-1) ?? "")
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .replace(/[\p{Cc}\p{Cf}"*:<>?|]/gu, "")
    .trim()
    .replace(/^\.+/, "");
}

/** The last extension of a sent name, in lower case ("PNG" → "png"), or null when it has none. */
export function extensionOf(sent: string): string | null {
  const match = /\.([\p{L}\p{N}]{1,5})$/u.exec(cleanFileName(sent));
  return match ? match[1]!.toLowerCase() : null;
}

/** The sent name as the person recognises it in a refusal: cleaned, at most 60 characters. */
export function shownFileName(sent: string): string {
  return [...(cleanFileName(sent) || "?")].slice(0, 60).join("");
}

/**
 * The name a file is stored and served under: the sent name made clean (cleanFileName), its last
 * extension dropped, at most `maxLength` characters with `extension` put after it (the extension of the
 * type its content has: a PNG sent as "receipt.pdf" is "receipt.png"); `fallback` when nothing is left.
 */
export function safeFileName(
  sent: string,
  extension: string,
  { fallback, maxLength }: { fallback: string; maxLength: number },
): string {
  const base =
    cleanFileName(sent)
      .replace(/\.[\p{L}\p{N}]{1,5}$/u, "")
      .trim() || fallback;
  const suffix = `.${extension}`;
  const room = maxLength - suffix.length;
  return [...base].slice(0, room).join("").trim() + suffix;
}

/** A file's size for people: "820 kB", "2.4 MB" in the reader's language (decimal units, as files show). */
export function formatFileSize(bytes: number, locale: string): string {
  if (bytes < 1000 * 1000)
    return numberFormat(locale, {
      style: "unit",
      unit: "kilobyte",
      maximumFractionDigits: 0,
    }).format(Math.max(1, Math.round(bytes / 1000)));
  return numberFormat(locale, {
    style: "unit",
    unit: "megabyte",
    maximumFractionDigits: 1,
  }).format(bytes / (1000 * 1000));
}
