import { readTopUpProof } from "~/domain/payments/top-up-proofs.server";
import { proofFileResponse } from "~/http/proof-file.server";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/top-up-proof";

/**
 * GET /dashboard/top-up/proofs/:id (docs/payments.md#proof-files): a proof file of a top-up request, to
 * its owner and to admins, shown in the browser under the policy of an uploaded file; the same 404 to
 * anyone else (`proofFileResponse`).
 */
export function loader({ url, params, context }: Route.LoaderArgs) {
  return proofFileResponse(
    { url, id: params.id, context: requestContext(context) },
    readTopUpProof,
  );
}
