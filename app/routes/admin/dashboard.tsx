import { LifeBuoyIcon, ServerIcon, ShoppingCartIcon, UsersIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { SimpleTable } from "~/components/data-table/simple-table";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { loadAdminDashboard } from "~/domain/admin-dashboard/admin-dashboard.server";
import { ActivityList } from "~/features/admin-logs/audit-entry";
import {
  SERVICE_STATUS_LABELS,
  type ServiceStatus,
} from "~/domain/hosting-services/hosting-services";
import { requireAdmin } from "~/http/guards.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(request, context);
  const t = context.i18n.getFixedT(null, "admin");
  return {
    meta: { title: t("nav.dashboard") },
    email: admin.email,
    locale: context.locale,
    ...(await loadAdminDashboard(context.services.db)),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

function Stat({
  icon,
  label,
  value,
  to,
}: {
  icon: ReactNode;
  label: string;
  value: number;
  to: string;
}) {
  return (
    <Link to={to} className="block">
      <Card className="transition-shadow hover:shadow-md">
        <CardContent className="flex items-center gap-3 pt-6">
          <span className="rounded-md bg-muted p-2 text-primary [&_svg]:size-5" aria-hidden>
            {icon}
          </span>
          <div>
            <p className="text-xs text-muted-foreground">{label}</p>
            <p className="text-2xl font-bold">{value}</p>
          </div>
        </CardContent>
      </Card>
    </Link>
  );
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { t: tServices } = useTranslation("services");
  const { stats, activity, overview, locale } = loaderData;
  return (
    <main className="grid gap-6">
      <h1 className="text-2xl font-bold">{t("nav.dashboard")}</h1>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat
          icon={<UsersIcon />}
          label={t("dashboard.clients")}
          value={stats.clients}
          to="/admin/clients"
        />
        <Stat
          icon={<ServerIcon />}
          label={t("dashboard.activeServices")}
          value={stats.activeServices}
          to="/admin/services"
        />
        <Stat
          icon={<ShoppingCartIcon />}
          label={t("dashboard.pendingOrders")}
          value={stats.pendingOrders}
          to="/admin/orders?status=pending"
        />
        <Stat
          icon={<LifeBuoyIcon />}
          label={t("dashboard.openTickets")}
          value={stats.openTickets}
          to="/admin/tickets"
        />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("dashboard.recentActivity")}</CardTitle>
          </CardHeader>
          <CardContent>
            <ActivityList entries={activity} locale={locale} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("dashboard.serviceOverview")}</CardTitle>
          </CardHeader>
          <CardContent>
            {overview.length === 0 ? (
              <p className="text-muted-foreground">{t("dashboard.noServices")}</p>
            ) : (
              <SimpleTable head={[t("dashboard.type"), tServices("admin.status"), "#"]}>
                {overview.map((row) => (
                  <tr key={`${row.type}-${row.status}`}>
                    <td className="px-3 py-2 uppercase">{row.type ?? t("dashboard.custom")}</td>
                    <td className="px-3 py-2">
                      {tServices(SERVICE_STATUS_LABELS[row.status as ServiceStatus])}
                    </td>
                    <td className="px-3 py-2 font-mono">{row.count}</td>
                  </tr>
                ))}
              </SimpleTable>
            )}
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t("dashboard.quickActions")}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link to="/admin/orders?status=pending">{t("dashboard.reviewOrders")}</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/admin/tickets?status=open">{t("dashboard.answerTickets")}</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/admin/clients">{t("dashboard.addCoins")}</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/admin/services">{t("dashboard.addService")}</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
