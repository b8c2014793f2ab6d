import { createHash } from "node:crypto";
import type { Db } from "~/db/transaction";
import { countFormPost } from "~/domain/request-limits/request-limits.server";
import {
  isImageType,
  maxPixelsOf,
  pdfLooksComplete,
  safeFileName,
  shownFileName,
  type ImageType,
  type StoredFileType,
} from "./files";
import {
  decodeInTurn,
  loadSharp,
  previewOf,
  reencode,
  SHARP_FORMATS,
  type ImagePreview,
} from "./images.server";

// Reading what a person uploads, by its content (the top-ups' proofs, the tickets' files): its type from
// its bytes, an image decoded and written again without its metadata, a PDF checked for its ends, and
// the name it is stored under. Each area gives its policy (its types, its size) and says a refusal in
// its own words.

/** A file as a form sent it: the name the browser gave and the bytes. */
export interface Upload {
  name: string;
  bytes: Uint8Array;
}

/** A file read and ready to store: what is served, and the hash of what was sent. */
export interface PreparedUpload<T extends StoredFileType = StoredFileType> {
  fileName: string;
  contentType: T;
  bytes: Buffer;
  sha256: string;
  /** An image's size in pixels as stored; null for anything else. */
  width: number | null;
  height: number | null;
  /** An image's preview, when the policy asks for one (null when it could not be made). */
  preview: ImagePreview | null;
}

/**
 * Why a file is refused: over the size, of a type the area does not take, an image of too many pixels,
 * a file that cannot be read as what its bytes say, or a name that says another type than its bytes.
 */
export type UploadRefusalReason = "tooBig" | "type" | "tooManyPixels" | "unreadable" | "misnamed";

export interface UploadRefused {
  ok: false;
  reason: UploadRefusalReason;
  /** The file's name as sent (cleaned), and the limit a refusal names (MB, megapixels). */
  params: { name: string; max?: number; extension?: string };
}

/** What the content of a file is, as an area's policy reads it: its type and the stored extension. */
export type TypeReading<T extends StoredFileType> =
  { type: T; extension: string } | { reason: "type" | "misnamed"; extension?: string };

export interface UploadPolicy<T extends StoredFileType> {
  /** The largest file, as sent (bytes). */
  maxBytes: number;
  /** The type the file's bytes (and, for some areas, its name) say, or why it is refused. */
  typeOf: (upload: Upload) => TypeReading<T>;
  /** The stored name when nothing is left of the sent one, and its longest length. */
  fallbackName: string;
  maxNameLength: number;
  /** The largest side of an image's preview, made in the same turn as the image (none without it). */
  previewSide?: number;
}

function refused(reason: UploadRefusalReason, params: UploadRefused["params"]): UploadRefused {
  return { ok: false, reason, params };
}

/**
 * One file, read by its content: its size first, then its type (policy.typeOf: the browser's label is
 * never asked); an image decoded (no more than maxPixelsOf its type, counted from its header before
 * anything is decoded), turned upright by its EXIF orientation and written again without its metadata
 * (EXIF, GPS, ICC, XMP: sharp keeps none unless told); a PDF checked for its header and its end, kept as
 * sent; text kept as sent.
 */
export async function prepareUpload<T extends StoredFileType>(
  upload: Upload,
  policy: UploadPolicy<T>,
): Promise<{ ok: true; file: PreparedUpload<T> } | UploadRefused> {
  // The name as sent (cleaned), for the message: the person recognises their own file by it.
  const name = shownFileName(upload.name);
  if (upload.bytes.length > policy.maxBytes)
    return refused("tooBig", { name, max: policy.maxBytes / 1024 / 1024 });
  const reading = policy.typeOf(upload);
  if ("reason" in reading)
    return refused(reading.reason, {
      name,
      ...(reading.extension ? { extension: reading.extension } : {}),
    });
  const type = reading.type;
  const sha256 = createHash("sha256").update(upload.bytes).digest("hex");
  const fileName = safeFileName(upload.name, reading.extension, {
    fallback: policy.fallbackName,
    maxLength: policy.maxNameLength,
  });
  const kept = (): PreparedUpload<T> => ({
    fileName,
    contentType: type,
    bytes: Buffer.from(upload.bytes),
    sha256,
    width: null,
    height: null,
    preview: null,
  });
  if (type === "application/pdf")
    return pdfLooksComplete(upload.bytes)
      ? { ok: true, file: kept() }
      : refused("unreadable", { name });
  if (!isImageType(type)) return { ok: true, file: kept() };
  return reencodeImage(upload, type, { name, fileName, sha256, previewSide: policy.previewSide });
}

async function reencodeImage<T extends StoredFileType>(
  upload: Upload,
  type: ImageType,
  about: { name: string; fileName: string; sha256: string; previewSide?: number },
): Promise<{ ok: true; file: PreparedUpload<T> } | UploadRefused> {
  const { name, previewSide } = about;
  const options = { limitInputPixels: maxPixelsOf(type), failOn: "error" as const };
  // Outside the try below: a sharp that cannot load is a broken install, not an unreadable file.
  const sharp = await loadSharp();
  try {
    const header = await sharp(upload.bytes, options).metadata();
    if (header.format !== SHARP_FORMATS[type]) return refused("unreadable", { name });
    const { data, info, preview } = await decodeInTurn(async () => {
      const written = await reencode(sharp(upload.bytes, options).autoOrient(), type).toBuffer({
        resolveWithObject: true,
      });
      // The preview is read from the image as written (upright, shrunk while decoded), in the same
      // turn and after it: one decode more, but no more memory at once. Tee-ing the one decode into
      // both would hold the whole image where it is now written a band at a time.
      return {
        ...written,
        preview: previewSide ? await previewOf(written.data, type, previewSide) : null,
      };
    });
    return {
      ok: true,
      file: {
        fileName: about.fileName,
        contentType: type as T,
        bytes: data,
        sha256: about.sha256,
        width: info.width,
        height: info.height,
        preview,
      },
    };
  } catch (error) {
    // sharp says so in words only; everything else it refuses is a file it cannot decode.
    if (error instanceof Error && /pixel limit/i.test(error.message))
      return refused("tooManyPixels", { name, max: maxPixelsOf(type) / 1_000_000 });
    return refused("unreadable", { name });
  }
}

/**
 * Counts a post of files by an account at `now` under `counter` (the form limit's count, per account:
 * app/domain/request-limits), committed at once and before anything of the post is read, and says how
 * many whole minutes to wait (at least 1) when it is over `limit`, else null. A refused post counts too:
 * each one would have cost a decode.
 */
export async function countUploadPost(
  db: Db,
  counter: { form: string; limit: number; windowMs: number },
  now: Date,
): Promise<number | null> {
  const decision = await countFormPost(db, { ip: "account", ...counter }, now);
  if (decision.allowed) return null;
  return Math.max(1, Math.ceil((decision.resetAt.getTime() - now.getTime()) / 60_000));
}
