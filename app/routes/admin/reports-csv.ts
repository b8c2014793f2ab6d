import { exportMonthlyReportCsv } from "~/domain/reports/reports.server";
import { csvResponse } from "~/http/csv.server";
import { requirePermission } from "~/http/guards.server";
import type { Route } from "./+types/reports-csv";
import { requestContext } from "~/context.server";

// /admin/reports.csv: a resource route (no page), the report's figures as a file.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requirePermission(url, context, "reports.view");
  return csvResponse(
    await exportMonthlyReportCsv(context.services.db, { now: context.services.clock() }),
  );
}
