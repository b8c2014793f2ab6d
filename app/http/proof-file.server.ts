import type { RequestContext } from "~/context.server";
import type { ProofFileResult } from "~/domain/payments/top-up-proofs.server";
import { uploadedFileResponse } from "~/http/file-response.server";
import { requirePermission, requireUser } from "~/http/guards.server";
import { idField } from "~/lib/id-field";

const proofId = idField("payments.errors.proofNotFound");

/**
 * A top-up's proof file (or its preview, as `read` gives it) for a loader: to its owner and to admins
 * (a member of the staff passes the admin pages' own guard first: two-factor sign-in when
 * required, and a role that decides top-ups), under the policy
 * of an uploaded file and kept by no cache. Anyone else, an id that is no file, a PDF's preview and one
 * yet to be made get the same 404: whether a file exists is never told to someone who may not see it.
 */
export async function proofFileResponse(
  { url, id: param, context }: { url: URL; id: string | undefined; context: RequestContext },
  read: (
    db: RequestContext["services"]["db"],
    input: { proofId: number; viewerId: string },
  ) => Promise<ProofFileResult>,
): Promise<Response> {
  const user = requireUser(url, context);
  if (user.role === "admin") requirePermission(url, context, "topups.decide");
  const id = proofId.safeParse(param);
  const found = id.success
    ? await read(context.services.db, { proofId: id.data, viewerId: user.id })
    : undefined;
  if (!found?.ok)
    return new Response(context.i18n.getFixedT(null, "common")("notFound.title"), {
      status: 404,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
        // Never kept: a preview yet to be made is there once the worker has made it.
        "Cache-Control": "no-store",
      },
    });
  return uploadedFileResponse(found.file);
}
