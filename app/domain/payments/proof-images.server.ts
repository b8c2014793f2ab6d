import type sharpFunction from "sharp";
import { oneAtATime } from "~/lib/one-at-a-time";
import { maxPixelsOf, THUMBNAIL_MAX_SIDE, type ProofType } from "./top-up-proofs";

// The image work of proof files (docs/payments.md#proof-files), shared by the upload and the worker:
// sharp loaded once, libvips' cache off, and one image decoded at a time in a process (ADR 53).

/**
 * sharp, loaded with the first image a customer sends: it brings libvips and its libraries into the
 * process, resident memory that a server process which never reads a proof need not carry
 * (docs/performance.md, "The server process").
 */
let sharpModule: Promise<typeof sharpFunction> | undefined;
export async function loadSharp(): Promise<typeof sharpFunction> {
  sharpModule ??= import("sharp").then(({ default: sharp }) => {
    // No operation cache: it keeps decoded images (up to 50 MB by default) after their request has
    // gone, and a proof is decoded once. One libvips thread per image: a decode takes a little longer,
    // and holds one thread's buffers rather than one per core.
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}

/**
 * Images are decoded one at a time in a process: three accounts posting their largest images at once hold
 * one image's pixels, not three (docs/performance.md, "The server process"). The upload and the worker's
 * previews take turns in the same queue.
 */
export const decodeInTurn = oneAtATime();

/** A proof image's preview: a small WebP, what the admins' queue shows in place of the file. */
export interface ProofThumbnail {
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * The preview of an image as stored (upright, without metadata): within THUMBNAIL_MAX_SIDE pixels each
 * way, never enlarged, as a WebP of a few kilobytes. Call it inside a `decodeInTurn` turn. A JPEG or a WebP
 * is decoded already shrunk (libjpeg and libwebp scale while they decode) and a PNG a band at a time, so
 * a preview holds a few megabytes, under what writing the image again held (measured on the largest
 * files allowed: the process's highest mark did not move). Null when the image cannot be read: a missing
 * preview shows a placeholder, never a refused file.
 */
export async function thumbnailOf(
  bytes: Uint8Array,
  type: ProofType,
): Promise<ProofThumbnail | null> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: maxPixelsOf(type),
      failOn: "error",
    })
      .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch {
    return null;
  }
}
