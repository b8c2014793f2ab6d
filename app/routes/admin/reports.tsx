import { loadReportsPage } from "~/domain/reports/reports.server";
import { ReportsPage } from "~/features/admin-reports/reports-page";
import { adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/reports";
import { requestContext } from "~/context.server";

// Orders and coins spent per month and product type, and the money received (coins bought, cash per
// payment method in its currency), last 12 months (docs/admin.md, "Reports").
export const loader = adminLoader(requestContext, {
  title: "admin.nav.reports",
  permission: "reports.view",
  load: ({ db, context }) => loadReportsPage(db, { locale: context.locale }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminReports({ loaderData }: Route.ComponentProps) {
  return (
    <ReportsPage
      report={loaderData.report}
      money={loaderData.money}
      reasons={loaderData.reasons}
      locale={loaderData.locale}
    />
  );
}
