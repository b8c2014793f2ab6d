import { Outlet } from "react-router";
import { AdminShell } from "~/components/layout/admin-shell";
import { MaintenanceBanner } from "~/components/layout/maintenance-banner";
import { countOpenTickets } from "~/domain/tickets/tickets.server";
import { requireAdmin } from "~/http/guards.server";
import type { Route } from "./+types/layout";
import { requestContext } from "~/context.server";
import { useRootData } from "~/root";
import { DEFAULT_TIME_ZONE } from "~/lib/time-zone";

export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const admin = requireAdmin(url, context);
  return {
    email: admin.email,
    openTickets: await countOpenTickets(context.services.db),
    maintenanceMode: context.settings.general.maintenanceMode,
  };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  // The admin's own notifications come with the root's data (every signed-in user's).
  const root = useRootData();
  return (
    <AdminShell
      email={loaderData.email}
      openTickets={loaderData.openTickets}
      notifications={root?.user?.notifications}
      locale={root?.locale}
      timeZone={root?.settings.general.timeZone ?? DEFAULT_TIME_ZONE}
    >
      {loaderData.maintenanceMode ? <MaintenanceBanner className="mb-4" /> : null}
      <Outlet />
    </AdminShell>
  );
}
