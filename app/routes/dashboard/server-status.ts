import { requestContext } from "~/context.server";
import { readServerStatus } from "~/domain/servers/server-status.server";
import { requireUser } from "~/http/guards.server";
import { idField } from "~/lib/id-field";
import type { Route } from "./+types/server-status";

// GET /dashboard/services/:id/status (docs/server-control.md): the card's state alone, as JSON, which the
// server's page asks for while it is open. Read from the cache like the page (a stale state queues its
// refresh; nothing here waits on the panel). Another customer's service, or one without a server on the
// panel, is a 404 as the page is; never kept by a browser or a proxy.
const serviceIdSchema = idField("services.errors.notFound");

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const id = serviceIdSchema.safeParse(params.id);
  const status = id.success
    ? await readServerStatus(context.services.db, {
        serviceId: id.data,
        userId: user.id,
        now: context.services.clock(),
        readOnly: Boolean(context.session?.viewer),
      })
    : null;
  if (!status) return Response.json(null, { status: 404, headers: NO_STORE });
  return Response.json(status, { headers: NO_STORE });
}
