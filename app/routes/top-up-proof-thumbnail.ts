import { idField } from "~/lib/id-field";
import { readTopUpProofThumbnail } from "~/domain/payments/top-up-proofs.server";
import { uploadedFileResponse } from "~/http/file-response.server";
import { requireAdmin, requireUser } from "~/http/guards.server";
import type { Route } from "./+types/top-up-proof-thumbnail";
import { requestContext } from "~/context.server";

const proofId = idField("payments.errors.proofNotFound");

/**
 * GET /dashboard/top-up/proofs/:id/thumbnail (docs/payments.md#proof-files): an image proof's preview, a
 * small WebP, to the same people as the file (its owner and admins) under the same policy, kept by their
 * browser (it never changes). A PDF, a preview yet to be made, and anyone else get the file route's 404.
 */
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  // An admin sees anyone's files: the admin pages' own guard first (two-factor sign-in when required).
  if (user.role === "admin") requireAdmin(url, context);
  const id = proofId.safeParse(params.id);
  const found = id.success
    ? await readTopUpProofThumbnail(context.services.db, { proofId: id.data, viewerId: user.id })
    : undefined;
  // Never kept: a preview yet to be made is there once the worker has made it.
  if (!found?.ok)
    return new Response(context.i18n.getFixedT(null, "common")("notFound.title"), {
      status: 404,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store",
      },
    });
  // Kept by no cache, as its original: a receipt's preview shows a name and a phone number, and a shared
  // device's browser must not keep it after its user signs out. At about 20 kB a preview, fetching the
  // queue's again costs little.
  return uploadedFileResponse(found.file);
}
