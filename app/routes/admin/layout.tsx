import { isRouteErrorResponse, Outlet, useRouteLoaderData } from "react-router";
import { AdminShell } from "~/components/layout/admin-shell";
import { MaintenanceBanner } from "~/components/layout/maintenance-banner";
import { PermissionRefused } from "~/components/layout/permission-refused";
import { countOpenTickets } from "~/domain/tickets/tickets.server";
import { can } from "~/domain/staff/permissions";
import { requireAdmin, type PermissionRefusal } from "~/http/guards.server";
import type { Route } from "./+types/layout";
import { requestContext } from "~/context.server";
import { useRootData } from "~/root";
import { DEFAULT_TIME_ZONE } from "~/lib/time-zone";
import type { ReactNode } from "react";

export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const admin = requireAdmin(url, context);
  return {
    email: admin.email,
    role: admin.staffRole,
    openTickets: can(admin.staffRole, "tickets.reply")
      ? await countOpenTickets(context.services.db)
      : null,
    maintenanceMode: context.settings.general.maintenanceMode,
  };
}

function Shell({ children }: { children: ReactNode }) {
  const loaderData = useRouteLoaderData<typeof loader>("routes/admin/layout");
  // The member's own notifications come with the root's data (every signed-in user's).
  const root = useRootData();
  if (!loaderData) return <>{children}</>;
  return (
    <AdminShell
      email={loaderData.email}
      role={loaderData.role}
      openTickets={loaderData.openTickets}
      notifications={root?.user?.notifications}
      locale={root?.locale}
      timeZone={root?.settings.general.timeZone ?? DEFAULT_TIME_ZONE}
    >
      {loaderData.maintenanceMode ? <MaintenanceBanner className="mb-4" /> : null}
      {children}
    </AdminShell>
  );
}

export default function AdminLayout() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

function isPermissionRefusal(error: unknown): error is { data: PermissionRefusal } {
  return (
    isRouteErrorResponse(error) &&
    error.status === 403 &&
    (error.data as Partial<PermissionRefusal> | null)?.refused === "permission"
  );
}

/**
 * A page or a post the member's role does not hold: the shell stays, with what is missing in place of
 * the page. Any other failure is the root's to show.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (!isPermissionRefusal(error)) throw error;
  return (
    <Shell>
      <PermissionRefused permission={error.data.permission} role={error.data.role} />
    </Shell>
  );
}
