import type sharpFunction from "sharp";
import type { Sharp } from "sharp";
import { oneAtATime } from "~/lib/one-at-a-time";
import { maxPixelsOf, type ImageType } from "./files";

// The image work of every upload (the top-ups' proofs, the tickets' files), shared by the requests and the
// worker: sharp loaded once, libvips' cache off, and one image decoded at a time in a process (ADR 53).

/**
 * sharp, loaded with the first image a person sends: it brings libvips and its libraries into the
 * process, resident memory that a server process which never reads an upload need not carry
 * (docs/performance.md, "The server process").
 */
let sharpModule: Promise<typeof sharpFunction> | undefined;
export async function loadSharp(): Promise<typeof sharpFunction> {
  sharpModule ??= import("sharp").then(({ default: sharp }) => {
    // No operation cache: it keeps decoded images (up to 50 MB by default) after their request has
    // gone, and an upload is decoded once. One libvips thread per image: a decode takes a little longer,
    // and holds one thread's buffers rather than one per core.
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}

/**
 * Images are decoded one at a time in a process: three accounts posting their largest images at once hold
 * one image's pixels, not three (docs/performance.md, "The server process"). The uploads and the worker's
 * previews take turns in the same queue.
 */
export const decodeInTurn = oneAtATime();

/** How sharp names each image type (what its header must say the file is). */
export const SHARP_FORMATS: Record<ImageType, string> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
};

/**
 * How images are written again: the same format, a quality that keeps a screenshot's text sharp. JPEG with
 * libjpeg-turbo's encoder and its standard Huffman tables, so that it is written a band at a time as it is
 * read: mozjpeg's, or optimised tables, hold the whole image's coefficients until the end (100 MB for 16
 * megapixels against 16 MB; mozjpeg also took eight times the CPU), for files 7 to 10 % smaller.
 */
export function reencode(image: Sharp, type: ImageType): Sharp {
  if (type === "image/jpeg") return image.jpeg({ quality: 85, optimiseCoding: false });
  if (type === "image/webp") return image.webp({ quality: 85 });
  return image.png();
}

/** An image's preview: a small WebP, what a list shows in place of the file. */
export interface ImagePreview {
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * The preview of an image as stored (upright, without metadata): within `maxSide` pixels each way, never
 * enlarged, as a WebP of a few kilobytes. Call it inside a `decodeInTurn` turn. A JPEG or a WebP is
 * decoded already shrunk (libjpeg and libwebp scale while they decode) and a PNG a band at a time, so a
 * preview holds a few megabytes, under what writing the image again held (measured on the largest files
 * allowed: the process's highest mark did not move). Null when the image cannot be read: a missing
 * preview shows a placeholder, never a refused file.
 */
export async function previewOf(
  bytes: Uint8Array,
  type: ImageType,
  maxSide: number,
): Promise<ImagePreview | null> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: maxPixelsOf(type),
      failOn: "error",
    })
      .resize(maxSide, maxSide, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch {
    return null;
  }
}
