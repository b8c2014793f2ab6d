import { exportNewsletterSubscribersCsv } from "~/domain/inbox/inbox.server";
import { csvResponse } from "~/http/csv.server";
import { requirePermission } from "~/http/guards.server";
import type { Route } from "./+types/newsletter-csv";
import { requestContext } from "~/context.server";

// /admin/newsletter.csv: a resource route (no page), every subscriber as a file.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requirePermission(url, context, "inbox.manage");
  return csvResponse(await exportNewsletterSubscribersCsv(context.services.db));
}
