import { requestContext } from "~/context.server";
import { readServerStatus } from "~/domain/servers/server-status.server";
import { requirePermission } from "~/http/guards.server";
import { idField } from "~/lib/id-field";
import type { Route } from "./+types/service-panel-status";

// GET /admin/services/:id/panel/status: the same state as the customer's page asks for
// (routes/dashboard/server-status.ts), for staff and of any service, while its admin page is open.
// Outside the admin shell's layout, whose loader a JSON answer does not need.
const serviceIdSchema = idField("services.errors.notFound");

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requirePermission(url, context, "services.view");
  const id = serviceIdSchema.safeParse(params.id);
  const status = id.success
    ? await readServerStatus(context.services.db, {
        serviceId: id.data,
        userId: null,
        now: context.services.clock(),
      })
    : null;
  if (!status) return Response.json(null, { status: 404, headers: NO_STORE });
  return Response.json(status, { headers: NO_STORE });
}
