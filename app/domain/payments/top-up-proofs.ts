import { numberFormat } from "~/lib/intl-format";

// Proof files of top-up requests (docs/payments.md#proof-files): what a customer may attach
// when they say they have paid, and how a file's type is read from its content. Pure and safe in the
// browser (the page says the same limits the server checks).

/** The types a proof may have, decided by the file's first bytes, never by its name or the browser. */
export const PROOF_TYPES = ["image/jpeg", "image/png", "image/webp", "application/pdf"] as const;
export type ProofType = (typeof PROOF_TYPES)[number];

/** What the file input offers to pick (a hint to the browser; the server reads the content). */
export const PROOF_ACCEPT = PROOF_TYPES.join(",");

/** Each type's extension, which the stored name gets whatever the sent name said. */
export const PROOF_EXTENSIONS = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "application/pdf": "pdf",
} as const satisfies Record<ProofType, string>;

/** 5 MiB a file, as sent. */
export const MAX_PROOF_BYTES = 5 * 1024 * 1024;
/** Files a request may hold, all posts together. */
export const MAX_PROOFS_PER_TOP_UP = 3;
/**
 * The most pixels an image may declare (16 megapixels: a screenshot is a few, a phone's photo of a receipt
 * 12 at its usual size, 4032 × 3024). A JPEG or a PNG is read and written again a band at a time (about
 * 20 MB whatever its size; 55 MB for a photo turned by its EXIF orientation, which needs it whole), but a
 * small file declaring 20000 × 20000 is refused before it is decoded all the same (a decompression bomb).
 */
export const MAX_PROOF_PIXELS = 16_000_000;
/**
 * A WebP's ceiling: libwebp decodes and encodes a whole image at once, about 15 bytes a pixel (measured:
 * 244 MB for 16 megapixels), so a WebP is held to what a screenshot needs (5 megapixels: 1440 × 3200 is
 * 4.6).
 */
export const MAX_WEBP_PROOF_PIXELS = 5_000_000;

/** The most pixels an image of `type` may declare. */
export function maxPixelsOf(type: ProofType): number {
  return type === "image/webp" ? MAX_WEBP_PROOF_PIXELS : MAX_PROOF_PIXELS;
}
/** How near its end a PDF must say %%EOF (the bytes after it are line ends or junk a viewer ignores). */
export const PDF_EOF_WINDOW = 1024;
/**
 * Posts with proof files an account may make in an hour, whatever becomes of them (refused ones too: a
 * post's cost is its images' decoding, paid before it can be refused for what they hold). A customer
 * sends one, or a few when a file is refused.
 */
export const PROOF_POSTS_PER_HOUR = 10;
export const PROOF_POST_WINDOW_MS = 60 * 60_000;

/** The longest stored name, extension included (characters). */
export const MAX_PROOF_NAME_LENGTH = 100;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The type a file's first bytes say, or null for anything else (HTML, an executable, a GIF, an empty
 * file). The signatures: JPEG FF D8 FF; PNG's eight bytes; WebP a RIFF container of type WEBP; PDF
 * "%PDF-" at the very start (a viewer would look further in; a file that hides it after other bytes is
 * refused).
 */
export function proofTypeOf(bytes: Uint8Array): ProofType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(bytes, ascii("%PDF-"))) return "application/pdf";
  return null;
}

/** Whether a PDF ends as one does: "%%EOF" within its last PDF_EOF_WINDOW bytes (not cut short). */
export function pdfLooksComplete(bytes: Uint8Array): boolean {
  const marker = ascii("%%EOF");
  const from = Math.max(0, bytes.length - PDF_EOF_WINDOW);
  for (let i = bytes.length - marker.length; i >= from; i--)
    if (startsWith(bytes, marker, i)) return true;
  return false;
}

export function isImageProof(type: ProofType): boolean {
  return type !== "application/pdf";
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

/**
 * The name a file is stored and served under: the sent name made clean (cleanFileName), at most
 * MAX_PROOF_NAME_LENGTH characters, with the extension of the type its content has (a PNG sent as
 * "receipt.pdf" is "receipt.png"); "proof" when nothing is left of it.
 */
export function safeProofName(sent: string, type: ProofType): string {
  const base =
    cleanFileName(sent)
      .replace(/\.[\p{L}\p{N}]{1,5}$/u, "")
      .trim() || "proof";
  const extension = `.${PROOF_EXTENSIONS[type]}`;
  const room = MAX_PROOF_NAME_LENGTH - extension.length;
  return [...base].slice(0, room).join("").trim() + extension;
}

/**
 * The largest side of an image proof's preview, in pixels: the admins' queue shows it 80 px high at most,
 * so a screen of three or four device pixels to one still draws it sharp.
 */
export const THUMBNAIL_MAX_SIDE = 320;

/** A proof as its owner and the admins see it listed (never its bytes). */
export interface TopUpProof {
  id: number;
  requestId: number;
  fileName: string;
  contentType: ProofType;
  byteSize: number;
  width: number | null;
  height: number | null;
  /** An image's preview, once made (null for a PDF, and for an image whose preview is yet to be made). */
  thumbnail: { width: number; height: number } | null;
  createdAt: string;
}

/** A file as the admins see it in the queue: with the other requests the same file was sent with. */
export interface QueuedTopUpProof extends TopUpProof {
  /** The references of other requests holding the same file as sent, oldest first. */
  sameFileAs: string[];
}

/** Where a proof is served: its owner and the admins only (the route answers 404 to anyone else). */
export function proofPath(id: number): string {
  return `/dashboard/top-up/proofs/${id}`;
}

/** Where an image proof's preview is served, to the same people as the file. */
export function thumbnailPath(id: number): string {
  return `${proofPath(id)}/thumbnail`;
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
