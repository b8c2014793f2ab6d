import type { Db } from "~/db/transaction";
import { countUploadPost } from "~/domain/files/uploads.server";
import { PROOF_POST_WINDOW_MS, PROOF_POSTS_PER_HOUR } from "./top-up-proofs";

export interface ProofPostRefusal {
  ok: false;
  kind: "limited";
  error: "payments.errors.tooManyProofPosts";
  field: "proofs";
  /** The wait, in whole minutes (at least 1). */
  params: { count: number };
}

/**
 * Counts a post of proof files by `userId` at `now`, committed at once and before anything of the post
 * is read (the form limit's count, per account: app/domain/request-limits), and says whether it is over
 * PROOF_POSTS_PER_HOUR. A refused post counts too: each one would have cost a decode.
 */
export async function countProofPost(
  db: Db,
  userId: string,
  now: Date,
): Promise<ProofPostRefusal | null> {
  const minutes = await countUploadPost(
    db,
    { form: `proofs/${userId}`, limit: PROOF_POSTS_PER_HOUR, windowMs: PROOF_POST_WINDOW_MS },
    now,
  );
  if (minutes === null) return null;
  return {
    ok: false,
    kind: "limited",
    error: "payments.errors.tooManyProofPosts",
    field: "proofs",
    params: { count: minutes },
  };
}
