import {
  decodeInTurn,
  loadSharp,
  previewOf,
  type ImagePreview,
} from "~/domain/files/images.server";
import { THUMBNAIL_MAX_SIDE, type ProofType } from "./top-up-proofs";

// The image work of proof files (docs/payments.md#proof-files): every upload's (app/domain/files), with
// the size of a proof's preview.

export { decodeInTurn, loadSharp };

/** A proof image's preview: a small WebP, what the admins' queue shows in place of the file. */
export type ProofThumbnail = ImagePreview;

/**
 * The preview of an image proof as stored, within THUMBNAIL_MAX_SIDE pixels each way (previewOf); null
 * for a PDF, which has none, and when the image cannot be read. Call it inside a `decodeInTurn` turn.
 */
export async function thumbnailOf(
  bytes: Uint8Array,
  type: ProofType,
): Promise<ProofThumbnail | null> {
  if (type === "application/pdf") return null;
  return previewOf(bytes, type, THUMBNAIL_MAX_SIDE);
}
