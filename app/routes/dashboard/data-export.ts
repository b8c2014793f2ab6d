import { requestContext } from "~/context.server";
import { openDataExport } from "~/domain/data-exports/data-exports.server";
import { contentDisposition } from "~/http/file-response.server";
import { requireUser } from "~/http/guards.server";
import { fileNotFound } from "~/http/pdf.server";
import type { Route } from "./+types/data-export";

// GET /dashboard/account/export/:token (docs/self-service.md#a-customers-data): a customer's archive of
// their data, a download, to its owner signed in and only while its link works. A visitor signs in
// first and comes back here; another account, a member of the staff viewing the site as the customer,
// a token of no archive, a tampered or a lapsed one all get the same 404, never kept by any cache.
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  if (context.session?.viewer) return fileNotFound();
  const archive = await openDataExport(context.services.db, {
    userId: user.id,
    token: params.token,
    now: context.services.clock(),
  });
  if (!archive) return fileNotFound();
  return new Response(new Uint8Array(archive.bytes), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(archive.bytes.length),
      "Content-Disposition": contentDisposition("attachment", archive.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
