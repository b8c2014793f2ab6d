import { loadMonthlyReport } from "~/domain/reports/reports.server";
import { ReportsPage } from "~/features/admin-reports/reports-page";
import { adminPage } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/reports";
import { requestContext } from "~/context.server";

// Orders and coins spent per month and product type, last 12 months (docs/admin.md, "Reports").
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "admin");
  return {
    meta: { title: t("nav.reports") },
    report: await loadMonthlyReport(context.services.db),
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminReports({ loaderData }: Route.ComponentProps) {
  return <ReportsPage report={loaderData.report} locale={loaderData.locale} />;
}
