import { idField } from "~/lib/id-field";
import { readTopUpProof } from "~/domain/payments/top-up-proofs.server";
import { uploadedFileResponse } from "~/http/file-response.server";
import { requireAdmin, requireUser } from "~/http/guards.server";
import type { Route } from "./+types/top-up-proof";
import { requestContext } from "~/context.server";

const proofId = idField("payments.errors.proofNotFound");

/**
 * GET /dashboard/top-up/proofs/:id (docs/payments.md#proof-files): a proof file of a top-up request, to
 * its owner and to admins, shown in the browser under the policy of an uploaded file. Anyone else, and an
 * id that is no file, get the same 404: whether a file exists is never told to someone who may not see it.
 */
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  // An admin sees anyone's files: the admin pages' own guard first (two-factor sign-in when required).
  if (user.role === "admin") requireAdmin(url, context);
  const id = proofId.safeParse(params.id);
  const found = id.success
    ? await readTopUpProof(context.services.db, { proofId: id.data, viewerId: user.id })
    : undefined;
  if (!found?.ok)
    return new Response(context.i18n.getFixedT(null, "common")("notFound.title"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
    });
  return uploadedFileResponse(found.file);
}
