import {
  prepareUpload,
  type Upload,
  type UploadPolicy,
  type UploadRefusalReason,
} from "~/domain/files/uploads.server";
import { getSettings } from "~/domain/settings/settings.server";
import { inTransaction, Refusal, type Db, type Tx } from "~/db/transaction";
import type { FailureKind } from "~/lib/result";
import type { ProofThumbnail } from "./proof-images.server";
import { queueMissingThumbnails } from "./proof-thumbnail-jobs.server";
import {
  isImageProof,
  MAX_PROOF_BYTES,
  MAX_PROOF_NAME_LENGTH,
  MAX_PROOFS_PER_TOP_UP,
  PROOF_EXTENSIONS,
  proofTypeOf,
  THUMBNAIL_MAX_SIDE,
  type ProofType,
  type QueuedTopUpProof,
  type TopUpProof,
} from "./top-up-proofs";
import type { TopUpState } from "./top-ups";

// Proof files of top-up requests (docs/payments.md#proof-files): reading what a customer sent
// (by its content), storing it with the request it proves, listing it for its owner and the admins,
// serving it to them only, and deleting it once the accounting records' retention has passed.

/** A file as a form sent it: the name the browser gave and the bytes. */
export type ProofUpload = Upload;

/** A file read and ready to store: what is served, and the hash of what was sent. */
export interface PreparedProof {
  fileName: string;
  contentType: ProofType;
  bytes: Buffer;
  sha256: string;
  width: number | null;
  height: number | null;
  /** An image's preview (null for a PDF, or when it could not be made: the worker tries again). */
  thumbnail: ProofThumbnail | null;
}

export type ProofRefusal =
  | "payments.errors.proofRequired"
  | "payments.errors.proofTooMany"
  | "payments.errors.proofTooBig"
  | "payments.errors.proofType"
  | "payments.errors.proofTooManyPixels"
  | "payments.errors.proofUnreadable"
  | "payments.errors.proofAlreadyAttached";

/** A refused file: the form's `proofs` field, with the file's name or the limit in the message. */
export interface ProofRefused {
  ok: false;
  kind: FailureKind;
  error: ProofRefusal;
  field: "proofs";
  params: Record<string, string | number>;
}

function refused(
  kind: FailureKind,
  error: ProofRefusal,
  params: Record<string, string | number> = {},
): ProofRefused {
  return { ok: false, kind, error, field: "proofs", params };
}

/**
 * What a proof may be (every upload's reading, app/domain/files): a JPEG, PNG or WebP image or a PDF by
 * its first bytes, whatever its name says (a PNG sent as "receipt.pdf" is stored as "receipt.png"), of
 * MAX_PROOF_BYTES at most; an image gets its preview in the same turn.
 */
const PROOF_POLICY: UploadPolicy<ProofType> = {
  maxBytes: MAX_PROOF_BYTES,
  typeOf: ({ bytes }) => {
    const type = proofTypeOf(bytes);
    return type ? { type, extension: PROOF_EXTENSIONS[type] } : { reason: "type" };
  },
  fallbackName: "proof",
  maxNameLength: MAX_PROOF_NAME_LENGTH,
  previewSide: THUMBNAIL_MAX_SIDE,
};

/** Each reason an upload is refused for, in the proofs' words. */
const PROOF_REFUSALS: Record<UploadRefusalReason, ProofRefusal> = {
  tooBig: "payments.errors.proofTooBig",
  type: "payments.errors.proofType",
  // A proof's name is never read for its type: no proof is refused for it.
  misnamed: "payments.errors.proofType",
  tooManyPixels: "payments.errors.proofTooManyPixels",
  unreadable: "payments.errors.proofUnreadable",
};

/**
 * One file, read by its content (prepareUpload): its type from its first bytes (the name and the
 * browser's type are not asked); an image decoded, turned upright and written again without its
 * metadata, with its preview; a PDF checked for its header and its end, kept as sent.
 */
async function prepareOne(upload: ProofUpload): Promise<PreparedProof | ProofRefused> {
  const prepared = await prepareUpload(upload, PROOF_POLICY);
  if (!prepared.ok) {
    const { name, max } = prepared.params;
    return refused("invalid", PROOF_REFUSALS[prepared.reason], {
      name,
      ...(max === undefined ? {} : { max }),
    });
  }
  const { preview, ...file } = prepared.file;
  return { ...file, thumbnail: preview };
}

/**
 * The files of one post, read one after the other (each image decoded holds its pixels in memory):
 * refused as a whole at the first file refused, so a customer never wonders which were kept.
 */
export async function prepareProofs(
  uploads: readonly ProofUpload[],
): Promise<{ ok: true; proofs: PreparedProof[] } | ProofRefused> {
  if (uploads.length > MAX_PROOFS_PER_TOP_UP)
    return refused("invalid", "payments.errors.proofTooMany", { max: MAX_PROOFS_PER_TOP_UP });
  const proofs: PreparedProof[] = [];
  for (const upload of uploads) {
    const prepared = await prepareOne(upload);
    if ("ok" in prepared) return prepared;
    proofs.push(prepared);
  }
  return { ok: true, proofs };
}

/** How many files the request holds. */
export async function countProofsOf(db: Db | Tx, requestId: number): Promise<number> {
  const row = await db
    .selectFrom("top_up_proofs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("top_up_request_id", "=", requestId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A step: stores `proofs` with the request, inside the transaction that says it is paid. A request holds
 * one file at least once it is marked paid, and MAX_PROOFS_PER_TOP_UP at most, all posts together; a
 * file it holds already (same hash) is not stored twice. A refusal rolls the transaction back.
 */
export async function attachProofs(
  trx: Tx,
  request: { id: number; userId: string },
  proofs: readonly PreparedProof[],
  now = new Date(),
): Promise<void> {
  const held = await trx
    .selectFrom("top_up_proofs")
    .select("sha256")
    .where("top_up_request_id", "=", request.id)
    .execute();
  if (held.length + proofs.length === 0)
    throw new Refusal(refused("invalid", "payments.errors.proofRequired"));
  if (held.length + proofs.length > MAX_PROOFS_PER_TOP_UP)
    throw new Refusal(
      refused("conflict", "payments.errors.proofTooMany", {
        max: MAX_PROOFS_PER_TOP_UP,
        held: held.length,
      }),
    );
  const hashes = new Set(held.map((row) => row.sha256));
  for (const proof of proofs) {
    if (hashes.has(proof.sha256))
      throw new Refusal(
        refused("invalid", "payments.errors.proofAlreadyAttached", { name: proof.fileName }),
      );
    hashes.add(proof.sha256);
  }
  // One row at a time (three at most): each preview is stored with the id its file was given.
  for (const proof of proofs) {
    const row = await trx
      .insertInto("top_up_proofs")
      .values({
        top_up_request_id: request.id,
        user_id: request.userId,
        content_type: proof.contentType,
        bytes: proof.bytes,
        byte_size: proof.bytes.length,
        sha256: proof.sha256,
        file_name: proof.fileName,
        width: proof.width,
        height: proof.height,
        created_at: now.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (proof.thumbnail)
      await trx
        .insertInto("top_up_proof_thumbnails")
        .values({
          proof_id: Number(row.id),
          bytes: proof.thumbnail.bytes,
          byte_size: proof.thumbnail.bytes.length,
          width: proof.thumbnail.width,
          height: proof.thumbnail.height,
          created_at: now.toISOString(),
        })
        .execute();
  }
  // An image whose preview could not be made here gets one from the worker.
  if (proofs.some((proof) => isImageProof(proof.contentType) && !proof.thumbnail))
    await queueMissingThumbnails(trx, now);
}

function listed(db: Db | Tx) {
  return db
    .selectFrom("top_up_proofs")
    .leftJoin("top_up_proof_thumbnails as thumbnail", "thumbnail.proof_id", "top_up_proofs.id")
    .select([
      "top_up_proofs.id",
      "top_up_proofs.top_up_request_id",
      "top_up_proofs.file_name",
      "top_up_proofs.content_type",
      "top_up_proofs.byte_size",
      "top_up_proofs.width",
      "top_up_proofs.height",
      "thumbnail.width as thumbnail_width",
      "thumbnail.height as thumbnail_height",
      "top_up_proofs.created_at",
    ]);
}

type ListedRow = Awaited<ReturnType<ReturnType<typeof listed>["executeTakeFirstOrThrow"]>>;

function toProof(row: ListedRow): TopUpProof {
  return {
    id: Number(row.id),
    requestId: Number(row.top_up_request_id),
    fileName: row.file_name,
    contentType: row.content_type as ProofType,
    byteSize: Number(row.byte_size),
    width: row.width,
    height: row.height,
    thumbnail:
      row.thumbnail_width !== null && row.thumbnail_height !== null
        ? { width: row.thumbnail_width, height: row.thumbnail_height }
        : null,
    createdAt: row.created_at,
  };
}

/** A request's files as its owner sees them listed (names, sizes), oldest first. */
export async function listProofsOf(db: Db | Tx, requestId: number): Promise<TopUpProof[]> {
  const rows = await listed(db)
    .where("top_up_proofs.top_up_request_id", "=", requestId)
    .orderBy("top_up_proofs.id")
    .execute();
  return rows.map(toProof);
}

/**
 * The files of the queue's requests, by request. Each names the other requests (anyone's, whatever
 * their state) that hold the same file as sent: a receipt sent twice is for the admin to see, not
 * refused, since a customer may rightly send the same screenshot again for a request they cancelled.
 * Only admins see it: a customer never learns another's reference.
 */
export async function listProofsForQueue(
  db: Db,
  requestIds: readonly number[],
): Promise<Record<number, QueuedTopUpProof[]>> {
  if (requestIds.length === 0) return {};
  const rows = await listed(db)
    .where("top_up_proofs.top_up_request_id", "in", requestIds)
    .orderBy("top_up_proofs.id")
    .execute();
  const twins =
    rows.length === 0
      ? []
      : await db
          .selectFrom("top_up_proofs as proof")
          .innerJoin("top_up_proofs as twin", (join) =>
            join
              .onRef("twin.sha256", "=", "proof.sha256")
              .onRef("twin.top_up_request_id", "<>", "proof.top_up_request_id"),
          )
          .innerJoin("top_up_requests", "top_up_requests.id", "twin.top_up_request_id")
          .select(["proof.id as proof_id", "top_up_requests.reference"])
          .where(
            "proof.id",
            "in",
            rows.map((row) => row.id),
          )
          .orderBy("top_up_requests.id")
          .execute();
  const sameAs = new Map<number, string[]>();
  for (const twin of twins) {
    const list = sameAs.get(Number(twin.proof_id)) ?? [];
    if (!list.includes(twin.reference)) list.push(twin.reference);
    sameAs.set(Number(twin.proof_id), list);
  }
  const byRequest: Record<number, QueuedTopUpProof[]> = {};
  for (const row of rows) {
    const proof = toProof(row);
    (byRequest[proof.requestId] ??= []).push({ ...proof, sameFileAs: sameAs.get(proof.id) ?? [] });
  }
  return byRequest;
}

/** A proof's bytes as served, with what the response says of them. */
export interface ProofFile {
  fileName: string;
  contentType: ProofType | "image/webp";
  bytes: Buffer;
}

export type ProofFileResult =
  | { ok: true; file: ProofFile }
  | { ok: false; kind: "notFound"; error: "payments.errors.proofNotFound" };

const proofNotFound = {
  ok: false as const,
  kind: "notFound" as const,
  error: "payments.errors.proofNotFound" as const,
};

/** Whether `viewerId` may see a file of `ownerId`: its owner, or an admin (the role read here). */
async function maySee(db: Db, ownerId: string, viewerId: string): Promise<boolean> {
  if (ownerId === viewerId) return true;
  const viewer = await db
    .selectFrom("users")
    .select("role")
    .where("id", "=", viewerId)
    .executeTakeFirst();
  return viewer?.role === "admin";
}

/**
 * A proof file for `viewerId`: its owner's, or any for an admin (the role is read here, whatever the
 * route checked). Anyone else, and an id that does not exist, get the same "not found": a file's
 * existence is never confirmed to someone who may not see it.
 */
export async function readTopUpProof(
  db: Db,
  input: { proofId: number; viewerId: string },
): Promise<ProofFileResult> {
  const row = await db
    .selectFrom("top_up_proofs")
    .select(["user_id", "file_name", "content_type", "bytes"])
    .where("id", "=", input.proofId)
    .executeTakeFirst();
  if (!row || !(await maySee(db, row.user_id, input.viewerId))) return proofNotFound;
  return {
    ok: true,
    file: {
      fileName: row.file_name,
      contentType: row.content_type as ProofType,
      bytes: Buffer.from(row.bytes),
    },
  };
}

/**
 * An image proof's preview (a WebP) for `viewerId`, to the same people as the file (readTopUpProof);
 * "not found" as well while it is yet to be made, and for a PDF, which has none. Named as the file, with
 * the preview's extension.
 */
export async function readTopUpProofThumbnail(
  db: Db,
  input: { proofId: number; viewerId: string },
): Promise<ProofFileResult> {
  const row = await db
    .selectFrom("top_up_proof_thumbnails as thumbnail")
    .innerJoin("top_up_proofs", "top_up_proofs.id", "thumbnail.proof_id")
    .select(["top_up_proofs.user_id", "top_up_proofs.file_name", "thumbnail.bytes"])
    .where("thumbnail.proof_id", "=", input.proofId)
    .executeTakeFirst();
  if (!row || !(await maySee(db, row.user_id, input.viewerId))) return proofNotFound;
  return {
    ok: true,
    file: {
      fileName: row.file_name.replace(/\.[a-z]+$/, ".webp"),
      contentType: "image/webp",
      bytes: Buffer.from(row.bytes),
    },
  };
}

/** A request no one acts on any more: its files may go once the retention has passed. */
const CLOSED_STATES = [
  "approved",
  "rejected",
  "cancelled",
] as const satisfies readonly TopUpState[];

/** Files deleted in one statement, so a backlog of years never makes one long write. */
export const PROOF_DELETE_BATCH = 100;

/** `now` less `years` calendar years (29 February falls back to 1 March). */
export function yearsBefore(now: Date, years: number): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
  return cutoff;
}

/**
 * Deletes the proof files of closed requests (approved, rejected, cancelled) closed longer ago than
 * the accounting records' retention (`invoicing.retentionYears`, 10 years by default), with their
 * previews, in batches of PROOF_DELETE_BATCH, and returns how many files went. The request itself stays
 * (the ledger and the receipt name it); an open request's files are never deleted, however old.
 */
export async function deleteExpiredProofs(
  db: Db,
  input: { now: Date; batchSize?: number },
): Promise<number> {
  const { retentionYears } = (await getSettings(db)).invoicing;
  const cutoff = yearsBefore(input.now, retentionYears).toISOString();
  const batch = input.batchSize ?? PROOF_DELETE_BATCH;
  let deleted = 0;
  for (;;) {
    const due = await db
      .selectFrom("top_up_proofs")
      .innerJoin("top_up_requests", "top_up_requests.id", "top_up_proofs.top_up_request_id")
      .select("top_up_proofs.id")
      .where("top_up_requests.state", "in", CLOSED_STATES)
      // A cancelled request has no decision: it closed when it was last changed.
      .where(
        (eb) => eb.fn.coalesce("top_up_requests.decided_at", "top_up_requests.updated_at"),
        "<",
        cutoff,
      )
      .orderBy("top_up_proofs.id")
      .limit(batch)
      .execute();
    if (due.length === 0) return deleted;
    const ids = due.map((row) => row.id);
    // The previews first (they name their file), in the same transaction: none outlives its file.
    const result = await inTransaction(db, async (trx) => {
      await trx.deleteFrom("top_up_proof_thumbnails").where("proof_id", "in", ids).execute();
      return trx.deleteFrom("top_up_proofs").where("id", "in", ids).executeTakeFirst();
    });
    deleted += Number(result.numDeletedRows);
    if (due.length < batch) return deleted;
  }
}
