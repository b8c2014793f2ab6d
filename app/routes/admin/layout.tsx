import { useTranslation } from "react-i18next";
import { Form, NavLink, Outlet } from "react-router";
import { Button } from "~/components/ui/button";
import { requireAdmin } from "~/http/guards.server";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/layout";

export function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(request, context);
  return { email: admin.email };
}

const links = [
  { to: "/admin", key: "admin.nav.dashboard", end: true },
  { to: "/admin/orders", key: "admin.nav.orders" },
  { to: "/admin/services", key: "admin.nav.services" },
  { to: "/admin/clients", key: "admin.nav.clients" },
] as const;

// A plain top bar until the admin panel issue brings the full sidebar shell.
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen bg-muted">
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-2 px-4 py-3">
          <span className="me-4 font-bold">{t("admin.title")}</span>
          <nav aria-label={t("admin.title")} className="flex flex-wrap gap-1">
            {links.map((link) => (
              <NavLink
                key={link.to}
                to={link.to}
                end={"end" in link}
                className={({ isActive }) =>
                  cn(
                    "rounded-md px-3 py-1.5 text-sm hover:bg-muted",
                    isActive && "bg-muted font-semibold",
                  )
                }
              >
                {t(link.key)}
              </NavLink>
            ))}
            <NavLink to="/" className="rounded-md px-3 py-1.5 text-sm hover:bg-muted">
              {t("admin.nav.backToSite")}
            </NavLink>
          </nav>
          <div className="ms-auto flex items-center gap-2 text-sm">
            <span className="text-muted-foreground" dir="ltr">
              {loaderData.email}
            </span>
            <Form method="post" action="/logout">
              <Button type="submit" size="sm" variant="outline">
                {t("nav.logout")}
              </Button>
            </Form>
          </div>
        </div>
      </header>
      <div className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </div>
    </div>
  );
}
