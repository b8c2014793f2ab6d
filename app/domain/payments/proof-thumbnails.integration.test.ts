import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { JOB_HANDLERS } from "~/domain/jobs/registry.server";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { pdfProof, phoneJpeg, pngProof, type TestUpload } from "../../../tests/support/proof-files";
import { refusal } from "../../../tests/support/results";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { listPaymentMethodsForAdmin } from "./payment-methods.server";
import {
  PROOF_THUMBNAILS_JOB,
  queueMissingThumbnails,
  THUMBNAILS_PER_RUN,
} from "./proof-thumbnail-jobs.server";
import { MAX_PROOF_BYTES, THUMBNAIL_MAX_SIDE } from "./top-up-proofs";
import {
  deleteExpiredProofs,
  listProofsForQueue,
  listProofsOf,
  readTopUpProofThumbnail,
} from "./top-up-proofs.server";
import { approveTopUp } from "./top-up-decisions.server";
import { markTopUpPaid, requestTopUp } from "./top-up-requests.server";

/** What a preview may weigh: a few tens of kilobytes, where the file it shows weighs megabytes. */
const PREVIEW_MAX_BYTES = 40_000;

/**
 * A phone's photo of a receipt at its usual size (4032 × 3024), with a photo's detail: noise at a quarter
 * of the size, enlarged. About 4 MB.
 */
async function phonePhoto(name: string): Promise<TestUpload> {
  const [width, height] = [4032, 3024];
  const bytes = await sharp(randomBytes((width / 4) * (height / 4) * 3), {
    raw: { width: width / 4, height: height / 4, channels: 3 },
  })
    .resize(width, height, { kernel: "cubic" })
    .jpeg({ quality: 80 })
    .toBuffer();
  expect(bytes.length).toBeGreaterThan(2_000_000);
  expect(bytes.length).toBeLessThanOrEqual(MAX_PROOF_BYTES);
  return { name, bytes };
}

// Previews of image proofs (docs/payments.md#proof-files): made with the upload, served to the file's
// people only, made by the worker for files that have none, deleted with their file.
describeEachDatabase("previews of proof images", (app) => {
  /** A new customer's open cashPlus request for 10 coins. */
  async function openRequest() {
    const method = (await listPaymentMethodsForAdmin(app().db)).find((m) => m.code === "cashplus")!;
    await app()
      .db.updateTable("payment_methods")
      .set({ enabled: 1, instructions: JSON.stringify({ en: "Pay at cashPlus", fr: "", ar: "" }) })
      .where("id", "=", method.id)
      .execute();
    const userId = await customerWithCoins(app(), 0);
    const asked = await requestTopUp(app().db, { userId, methodId: method.id, coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    return { userId, request: asked.request };
  }

  const paid = (userId: string, requestId: number, proofs: TestUpload[]) =>
    markTopUpPaid(app().db, {
      userId,
      requestId,
      payerAccount: "0612 345 678",
      paidOn: new Date().toISOString().slice(0, 10),
      proofs,
    });

  async function thumbnailsOf(proofIds: number[]) {
    return app()
      .db.selectFrom("top_up_proof_thumbnails")
      .select(["proof_id", "bytes", "byte_size", "width", "height"])
      .where("proof_id", "in", proofIds)
      .orderBy("proof_id")
      .execute();
  }

  it("makes each image's preview with the upload: a WebP within 320 pixels, of a few tens of kilobytes", async () => {
    const { userId, request } = await openRequest();
    const photo = await phonePhoto("receipt.jpg");
    expect(
      await paid(userId, request.id, [photo, await phoneJpeg("turned.jpg"), pdfProof("bank.pdf")]),
    ).toMatchObject({ ok: true });
    const [big, turned, pdf] = await listProofsOf(app().db, request.id);
    expect(big).toMatchObject({
      width: 4032,
      height: 3024,
      thumbnail: { width: 320, height: 240 },
    });
    // Upright as the file is (sent turned by its EXIF orientation), and never enlarged.
    expect(turned).toMatchObject({ width: 30, height: 60, thumbnail: { width: 30, height: 60 } });
    // A PDF has none: the queue shows it as a link.
    expect(pdf!.thumbnail).toBeNull();

    const stored = await thumbnailsOf([big!.id, turned!.id, pdf!.id]);
    expect(stored.map((row) => Number(row.proof_id))).toEqual([big!.id, turned!.id]);
    for (const row of stored) {
      const read = await sharp(row.bytes).metadata();
      expect(read.format).toBe("webp");
      expect([read.width, read.height]).toEqual([row.width, row.height]);
      expect(Math.max(read.width, read.height)).toBeLessThanOrEqual(THUMBNAIL_MAX_SIDE);
      expect(row.byte_size).toBe(Buffer.from(row.bytes).length);
      expect(read.exif).toBeUndefined();
    }
    // Megabytes of photo, a preview of a few tens of kilobytes.
    expect(big!.byteSize).toBeGreaterThan(1_000_000);
    expect(stored[0]!.byte_size).toBeLessThan(PREVIEW_MAX_BYTES);

    // The admins' queue has them too.
    const queued = await listProofsForQueue(app().db, [request.id]);
    expect(queued[request.id]!.map((proof) => proof.thumbnail)).toEqual([
      { width: 320, height: 240 },
      { width: 30, height: 60 },
      null,
    ]);
  });

  it("hands a preview to the file's owner and to admins only; to anyone else it does not exist", async () => {
    const db = app().db;
    const { userId, request } = await openRequest();
    expect(
      await paid(userId, request.id, [await pngProof("mine.png"), pdfProof("mine.pdf")]),
    ).toMatchObject({ ok: true });
    const [image, pdf] = await listProofsOf(db, request.id);
    const owner = await readTopUpProofThumbnail(db, { proofId: image!.id, viewerId: userId });
    expect(owner).toMatchObject({
      ok: true,
      file: { fileName: "mine.webp", contentType: "image/webp" },
    });
    const admin = await readTopUpProofThumbnail(db, {
      proofId: image!.id,
      viewerId: await adminId(app()),
    });
    expect(admin.ok && owner.ok && admin.file.bytes.equals(owner.file.bytes)).toBe(true);
    expect(owner.ok && (await sharp(owner.file.bytes).metadata()).format).toBe("webp");

    const notFound = refusal("notFound", "payments.errors.proofNotFound");
    const stranger = await customerWithCoins(app(), 0);
    expect(await readTopUpProofThumbnail(db, { proofId: image!.id, viewerId: stranger })).toEqual(
      notFound,
    );
    expect(
      await readTopUpProofThumbnail(db, { proofId: image!.id, viewerId: "no-such-user" }),
    ).toEqual(notFound);
    // A PDF has no preview, even for its owner; nor has an id that is no file.
    expect(await readTopUpProofThumbnail(db, { proofId: pdf!.id, viewerId: userId })).toEqual(
      notFound,
    );
    expect(await readTopUpProofThumbnail(db, { proofId: 999_999, viewerId: userId })).toEqual(
      notFound,
    );
  });

  it("makes on the worker the previews of files stored without one, a run at a time; the queue shows none until then", async () => {
    const db = app().db;
    const { userId, request } = await openRequest();
    expect(await paid(userId, request.id, [await pngProof("first.png")])).toMatchObject({
      ok: true,
    });
    const [first] = await listProofsOf(db, request.id);
    // Files as they were stored before previews existed: more than a run makes, a PDF, and an image
    // that cannot be read (its preview is never made; the queue keeps its placeholder).
    await db.deleteFrom("top_up_proof_thumbnails").where("proof_id", "=", first!.id).execute();
    const image = await pngProof("old.png", { width: 200, height: 100 });
    const now = new Date().toISOString();
    const row = (n: number, contentType: string, bytes: Uint8Array) => ({
      top_up_request_id: request.id,
      user_id: userId,
      content_type: contentType,
      bytes: Buffer.from(bytes),
      byte_size: bytes.length,
      sha256: n.toString(16).padStart(64, "0"),
      file_name: `old-${n}`,
      width: 200,
      height: 100,
      created_at: now,
    });
    await db
      .insertInto("top_up_proofs")
      .values([
        ...Array.from({ length: THUMBNAILS_PER_RUN }, (_, n) =>
          row(n + 1, "image/png", image.bytes),
        ),
        row(100, "application/pdf", pdfProof().bytes),
        row(101, "image/png", Buffer.from("not a png at all")),
      ])
      .execute();
    const queued = (await listProofsForQueue(db, [request.id]))[request.id]!;
    expect(queued).toHaveLength(THUMBNAILS_PER_RUN + 3);
    expect(queued.every((proof) => proof.thumbnail === null)).toBe(true);

    // Queued once however often it is asked while it waits; this file's other jobs are not its concern.
    await db.deleteFrom("jobs").execute();
    for (let i = 0; i < 2; i++)
      await inTransaction(db, (trx) => queueMissingThumbnails(trx, new Date()));
    const worker = steppedWorker({
      db,
      handlers: JOB_HANDLERS,
      config: { leaseMs: 30_000, pollMs: 1_000, backoffMs: 1_000, concurrency: 1 },
    });
    try {
      for (let round = 0; round < 3; round++) {
        await worker.tick();
        await worker.idle();
      }
    } finally {
      await worker.stop(1000);
    }
    const jobs = await db
      .selectFrom("jobs")
      .select(["state", "payload"])
      .where("type", "=", PROOF_THUMBNAILS_JOB)
      .orderBy("id")
      .execute();
    // Two runs: the first made a run's worth and queued the next, which made the last one.
    expect(jobs.map((job) => job.state)).toEqual(["succeeded", "succeeded"]);
    const after = (await listProofsForQueue(db, [request.id]))[request.id]!;
    const made = after.filter((proof) => proof.thumbnail !== null);
    expect(made).toHaveLength(THUMBNAILS_PER_RUN + 1);
    expect(made.every((proof) => proof.contentType === "image/png")).toBe(true);
    expect(after.filter((proof) => proof.thumbnail === null).map((p) => p.fileName)).toEqual([
      "old-100",
      "old-101",
    ]);
    expect(made[1]!.thumbnail).toEqual({ width: 200, height: 100 });
  });

  it("deletes a preview with its file once the retention has passed", async () => {
    const db = app().db;
    const old = await openRequest();
    const kept = await openRequest();
    for (const [who, colour] of [
      [old, "#0a0"],
      [kept, "#00a"],
    ] as const)
      expect(
        await paid(who.userId, who.request.id, [await pngProof("r.png", { colour })]),
      ).toMatchObject({ ok: true });
    await approveTopUp(db, { adminId: await adminId(app()), requestId: old.request.id });
    const elevenYearsAgo = new Date(Date.now() - 11 * 365.25 * 86_400_000).toISOString();
    await db
      .updateTable("top_up_requests")
      .set({ decided_at: elevenYearsAgo, updated_at: elevenYearsAgo })
      .where("id", "=", old.request.id)
      .execute();
    const [oldProof] = await listProofsOf(db, old.request.id);
    const [keptProof] = await listProofsOf(db, kept.request.id);
    expect(await thumbnailsOf([oldProof!.id, keptProof!.id])).toHaveLength(2);

    expect(await deleteExpiredProofs(db, { now: new Date() })).toBe(1);
    expect(await listProofsOf(db, old.request.id)).toEqual([]);
    const left = await thumbnailsOf([oldProof!.id, keptProof!.id]);
    expect(left.map((row) => Number(row.proof_id))).toEqual([keptProof!.id]);
  });
});
