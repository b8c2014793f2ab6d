import {
  cleanFileName,
  formatFileSize,
  isImageType,
  MAX_IMAGE_PIXELS,
  MAX_WEBP_PIXELS,
  maxPixelsOf,
  PDF_EOF_WINDOW,
  pdfLooksComplete,
  safeFileName,
  SIGNED_EXTENSIONS,
  SIGNED_FILE_TYPES,
  signedTypeOf,
  type SignedFileType,
} from "~/domain/files/files";

// Proof files of top-up requests (docs/payments.md#proof-files): what a customer may attach
// when they say they have paid. How a file's type is read from its content, and the names files are
// stored under, are every upload's (app/domain/files). Pure and safe in the browser (the page says the
// same limits the server checks).

/** The types a proof may have, decided by the file's first bytes, never by its name or the browser. */
export const PROOF_TYPES = SIGNED_FILE_TYPES;
export type ProofType = SignedFileType;

/** What the file input offers to pick (a hint to the browser; the server reads the content). */
export const PROOF_ACCEPT = PROOF_TYPES.join(",");

/** Each type's extension, which the stored name gets whatever the sent name said. */
export const PROOF_EXTENSIONS = SIGNED_EXTENSIONS;

/** 5 MiB a file, as sent. */
export const MAX_PROOF_BYTES = 5 * 1024 * 1024;
/** Files a request may hold, all posts together. */
export const MAX_PROOFS_PER_TOP_UP = 3;
/** The most pixels an image may declare, and a WebP's ceiling (app/domain/files/files.ts says why). */
export const MAX_PROOF_PIXELS = MAX_IMAGE_PIXELS;
export const MAX_WEBP_PROOF_PIXELS = MAX_WEBP_PIXELS;
export { cleanFileName, formatFileSize, maxPixelsOf, PDF_EOF_WINDOW, pdfLooksComplete };
/**
 * Posts with proof files an account may make in an hour, whatever becomes of them (refused ones too: a
 * post's cost is its images' decoding, paid before it can be refused for what they hold). A customer
 * sends one, or a few when a file is refused.
 */
export const PROOF_POSTS_PER_HOUR = 10;
export const PROOF_POST_WINDOW_MS = 60 * 60_000;

/** The longest stored name, extension included (characters). */
export const MAX_PROOF_NAME_LENGTH = 100;

/**
 * The type a file's first bytes say, or null for anything else (HTML, an executable, a GIF, an empty
 * file): the signatures of app/domain/files/files.ts; a proof is never text.
 */
export function proofTypeOf(bytes: Uint8Array): ProofType | null {
  return signedTypeOf(bytes);
}

export function isImageProof(type: ProofType): boolean {
  return isImageType(type);
}

/**
 * The name a file is stored and served under: the sent name made clean (cleanFileName), at most
 * MAX_PROOF_NAME_LENGTH characters, with the extension of the type its content has (a PNG sent as
 * "receipt.pdf" is "receipt.png"); "proof" when nothing is left of it.
 */
export function safeProofName(sent: string, type: ProofType): string {
  return safeFileName(sent, PROOF_EXTENSIONS[type], {
    fallback: "proof",
    maxLength: MAX_PROOF_NAME_LENGTH,
  });
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
