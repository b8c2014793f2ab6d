import { readTopUpProofThumbnail } from "~/domain/payments/top-up-proofs.server";
import { proofFileResponse } from "~/http/proof-file.server";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/top-up-proof-thumbnail";

/**
 * GET /dashboard/top-up/proofs/:id/thumbnail (docs/payments.md#proof-files): an image proof's preview, a
 * small WebP, to the same people as the file under the same policy, kept by no cache as the file is (a
 * receipt shows a name and a phone number; a shared device must not keep it after sign-out). A PDF, a
 * preview yet to be made, and anyone else get the file route's 404.
 */
export function loader({ url, params, context }: Route.LoaderArgs) {
  return proofFileResponse(
    { url, id: params.id, context: requestContext(context) },
    readTopUpProofThumbnail,
  );
}
