import { exportNewsletterSubscribersCsv } from "~/domain/inbox/inbox.server";
import { csvResponse } from "~/http/csv.server";
import { requireAdmin } from "~/http/guards.server";
import type { Route } from "./+types/newsletter-csv";

// /admin/newsletter.csv: a resource route (no page), every subscriber as a file.
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  return csvResponse(await exportNewsletterSubscribersCsv(context.services.db));
}
