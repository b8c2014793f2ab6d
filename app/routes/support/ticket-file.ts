import { requestContext } from "~/context.server";
import { readTicketFile } from "~/domain/tickets/ticket-files.server";
import { uploadedFileResponse } from "~/http/file-response.server";
import { requirePermission, requireUser } from "~/http/guards.server";
import { idField } from "~/lib/id-field";
import type { Route } from "./+types/ticket-file";

const rowId = idField("tickets.files.errors.notFound");

/**
 * GET /support/:id/files/:fileId (docs/self-service.md#files-with-tickets): a file sent with a ticket's
 * message, to the ticket's customer and to the staff who answer tickets (a member of the staff passes
 * the admin pages' own guard first: two-factor sign-in when required, and a role that answers tickets),
 * under the policy of an uploaded file: an image shown, anything else downloaded, kept by no cache.
 * Anyone else, a file of a staff's internal note to its customer, a removed file and an id that is no
 * file get the same 404: whether a file exists is never told to someone who may not see it.
 */
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  if (user.role === "admin") requirePermission(url, context, "tickets.reply");
  const ticketId = rowId.safeParse(params.id);
  const fileId = rowId.safeParse(params.fileId);
  const found =
    ticketId.success && fileId.success
      ? await readTicketFile(context.services.db, {
          ticketId: ticketId.data,
          fileId: fileId.data,
          viewerId: user.id,
        })
      : undefined;
  if (!found?.ok)
    return new Response(context.i18n.getFixedT(null, "common")("notFound.title"), {
      status: 404,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store",
      },
    });
  return uploadedFileResponse(found.file);
}
