import { enqueueJob, type JobHandler } from "~/domain/jobs/jobs.server";
import { inTransaction, type Db, type Tx } from "~/db/transaction";
import { decodeInTurn, thumbnailOf } from "./proof-images.server";
import type { ProofType } from "./top-up-proofs";

// Previews of image proofs that have none (docs/payments.md#proof-files): an upload makes its files'
// previews itself, so this job makes those of the files stored before previews existed (the migration
// that added them queues it) and of any whose preview the upload could not make. The admins' queue shows
// a placeholder for such a file until then.

export const PROOF_THUMBNAILS_JOB = "payments.proof-thumbnails";

/** Files a run makes previews for; the next ones are a job of their own, queued by the run. */
export const THUMBNAILS_PER_RUN = 20;

/** A step: queues the job that makes the missing previews, unless it waits already. */
export async function queueMissingThumbnails(trx: Tx, now: Date): Promise<void> {
  await enqueueJob(trx, { type: PROOF_THUMBNAILS_JOB, uniqueKey: PROOF_THUMBNAILS_JOB, now });
}

/**
 * Makes the previews of up to `limit` image proofs without one, those with an id above `afterId`, oldest
 * first, each read and decoded in its turn (one image at a time in the process, as the uploads). A file
 * that cannot be read is passed over: its row keeps no preview and the queue its placeholder. Returns
 * how many were made, how many could not be, and the last id looked at.
 */
export async function makeMissingThumbnails(
  db: Db,
  input: { afterId: number; limit: number; now: Date },
): Promise<{ made: number; unreadable: number; lastId: number | null; more: boolean }> {
  const due = await db
    .selectFrom("top_up_proofs")
    .leftJoin("top_up_proof_thumbnails as thumbnail", "thumbnail.proof_id", "top_up_proofs.id")
    .select(["top_up_proofs.id", "top_up_proofs.content_type"])
    .where("top_up_proofs.content_type", "<>", "application/pdf")
    .where("thumbnail.proof_id", "is", null)
    .where("top_up_proofs.id", ">", input.afterId)
    .orderBy("top_up_proofs.id")
    .limit(input.limit)
    .execute();
  let made = 0;
  let unreadable = 0;
  for (const { id, content_type } of due) {
    const thumbnail = await decodeInTurn(async () => {
      // Read in the turn: a file's bytes are held only while its preview is made.
      const row = await db
        .selectFrom("top_up_proofs")
        .select("bytes")
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? thumbnailOf(row.bytes, content_type as ProofType) : null;
    });
    if (!thumbnail) {
      unreadable++;
      continue;
    }
    // Nothing if its file went meanwhile (the retention) or a run before this one made it.
    await inTransaction(db, async (trx) => {
      const file = await trx
        .selectFrom("top_up_proofs")
        .select("id")
        .where("id", "=", id)
        .executeTakeFirst();
      if (!file) return;
      await trx
        .insertInto("top_up_proof_thumbnails")
        .values({
          proof_id: Number(id),
          bytes: thumbnail.bytes,
          byte_size: thumbnail.bytes.length,
          width: thumbnail.width,
          height: thumbnail.height,
          created_at: input.now.toISOString(),
        })
        .onConflict((conflict) => conflict.column("proof_id").doNothing())
        .execute();
      made++;
    });
  }
  const lastId = due.length > 0 ? Number(due.at(-1)!.id) : null;
  return { made, unreadable, lastId, more: due.length === input.limit };
}

export const proofThumbnailHandlers: Record<string, JobHandler> = {
  [PROOF_THUMBNAILS_JOB]: async ({ db, now, payload, complete }) => {
    const afterId = Number((payload as { afterId?: unknown }).afterId ?? 0) || 0;
    const run = await makeMissingThumbnails(db, { afterId, limit: THUMBNAILS_PER_RUN, now });
    // The next files are the next run's, queued as this one ends: a backlog never holds one lease long.
    // Its key is its own: this job's key holds while it runs.
    await inTransaction(db, async (trx) => {
      if (run.more && run.lastId !== null)
        await enqueueJob(trx, {
          type: PROOF_THUMBNAILS_JOB,
          payload: { afterId: run.lastId },
          uniqueKey: `${PROOF_THUMBNAILS_JOB}:${run.lastId}`,
          now,
        });
      await complete(trx);
    });
    return { thumbnails: run.made, unreadable: run.unreadable };
  },
};
