import { Outlet } from "react-router";
import { AdminShell } from "~/components/layout/admin-shell";
import { countOpenTickets } from "~/domain/tickets/tickets.server";
import { requireAdmin } from "~/http/guards.server";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(request, context);
  return { email: admin.email, openTickets: await countOpenTickets(context.services.db) };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell email={loaderData.email} openTickets={loaderData.openTickets}>
      <Outlet />
    </AdminShell>
  );
}
