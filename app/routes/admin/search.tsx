import { redirect } from "react-router";
import { findSearchTarget } from "~/domain/admin-dashboard/admin-dashboard.server";
import { requirePermission } from "~/http/guards.server";
import type { Route } from "./+types/search";
import { requestContext } from "~/context.server";

// The top bar's search box: goes straight to the match.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requirePermission(url, context, "clients.view");
  const q = url.searchParams.get("q") ?? "";
  throw redirect(await findSearchTarget(context.services.db, q));
}
