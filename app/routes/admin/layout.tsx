import { Outlet } from "react-router";
import { requireAdmin } from "~/http/guards.server";
import type { Route } from "./+types/layout";

export function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(request, context);
  return { email: admin.email };
}

// The full admin shell (sidebar, top bar) comes with the admin panel issue.
export default function AdminLayout() {
  return (
    <div className="min-h-screen bg-muted">
      <Outlet />
    </div>
  );
}
