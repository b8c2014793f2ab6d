import { redirect } from "react-router";
import { requestContext } from "~/context.server";
import { clientIdSchema } from "~/domain/clients/clients.schemas";
import { VIEW_AS_LANDING } from "~/domain/staff/view-as";
import { viewAsStartSchema } from "~/domain/staff/view-as.schemas";
import { startViewAs } from "~/domain/staff/view-as.server";
import { requirePermission } from "~/http/guards.server";
import { adminForm, unknownForm } from "~/http/route-request.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import type { Route } from "./+types/client-view-as";

// POST /admin/clients/:id/view-as: the client page's "View as this customer" (ADR 57). The member of the
// staff's session then shows the site as the customer, read-only, from their dashboard on.

const clientPage = (id: string | undefined) => `/admin/clients/${encodeURIComponent(id ?? "")}`;

/** Nothing to show: the button lives on the client page. */
export function loader({ url, params, context }: Route.LoaderArgs) {
  requirePermission(url, requestContext(context), "clients.viewAs");
  return redirect(clientPage(params.id));
}

export async function action({ request, url, params, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(
    request,
    url,
    context,
    viewAsStartSchema,
    "clients.viewAs",
  );
  if (!form.ok) return unknownForm("admin-clients.errors.unknownAction");
  const id = clientIdSchema.safeParse(params.id);
  const result = id.success
    ? await startViewAs(context.services.db, {
        sessionId: context.session!.sessionId,
        actorId: admin.id,
        customerId: id.data,
        now: context.services.clock(),
      })
    : null;
  if (result?.ok) return redirect(VIEW_AS_LANDING);
  // A staff account, a deleted one, or the role changed meanwhile: back to the page, which says so.
  return redirect(clientPage(params.id), {
    headers: headersWithCookies([flashToast({ key: "toast.viewAsRefused", type: "error" })]),
  });
}
