import {
  ArrowLeftIcon,
  LifeBuoyIcon,
  MenuIcon,
  PanelLeftIcon,
  SearchIcon,
  UserIcon,
} from "lucide-react";
import { useEffect, useId, useState, type ReactNode } from "react";
import { ADMIN_NOTIFICATIONS_PATH, NotificationBell } from "./notification-bell";
import type { ShellUser } from "./types";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useLocation } from "react-router";
import { Link, NavLink } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Dialog, DialogTrigger, ModalDialog } from "~/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { Input } from "~/components/ui/input";
import { cn } from "~/lib/utils";
import { adminNavFor, navItemForPath } from "./admin-nav";
import { can, type StaffRole } from "~/domain/staff/permissions";
import { ADMIN_ACCOUNT_PATH } from "~/domain/accounts/accounts";

function Sidebar({
  collapsed,
  onNavigate,
  role,
}: {
  collapsed: boolean;
  onNavigate?: () => void;
  role: StaffRole | null;
}) {
  const { t } = useTranslation("admin");
  // A page under an item's path that has an item of its own (the canned replies under the tickets)
  // marks that one only.
  const current = navItemForPath(useLocation().pathname)?.path;
  return (
    <nav aria-label={t("shell.title")} className="flex h-full flex-col gap-4 overflow-y-auto p-3">
      {adminNavFor(role).map(({ label: groupLabel, items }) => (
        <div key={groupLabel}>
          {collapsed ? null : (
            <p className="px-2 pb-1 text-xs font-semibold text-slate-400 uppercase">
              {t(groupLabel)}
            </p>
          )}
          <ul className="grid gap-0.5">
            {items.map(({ path, label, icon: Icon }) => (
              <li key={path}>
                <NavLink
                  to={path}
                  end={path === "/admin" || (current !== path && current?.startsWith(`${path}/`))}
                  onClick={onNavigate}
                  title={collapsed ? t(label) : undefined}
                  className={({ isActive }) =>
                    cn(
                      "flex items-center gap-3 rounded-md px-2 py-1.5 text-sm text-slate-200 hover:bg-white/10",
                      isActive && "bg-primary text-primary-foreground",
                      collapsed && "justify-center",
                    )
                  }
                >
                  <Icon className="size-4 shrink-0" aria-hidden />
                  <span className={collapsed ? "sr-only" : undefined}>{t(label)}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <Link
        to="/"
        onClick={onNavigate}
        className={cn(
          "mt-auto flex items-center gap-3 rounded-md px-2 py-1.5 text-sm text-slate-200 hover:bg-white/10",
          collapsed && "justify-center",
        )}
      >
        <ArrowLeftIcon className="size-4 shrink-0 rtl:rotate-180" aria-hidden />
        <span className={collapsed ? "sr-only" : undefined}>{t("shell.backToSite")}</span>
      </Link>
    </nav>
  );
}

/**
 * The admin panel's frame: a collapsible sidebar (a drawer on phones), search, notifications and user menu.
 * The drawer (a Dialog `inPage`) and the menus open before the page's scripts have run, as the forms work
 * without them (ADR 50); collapsing the sidebar on a desktop waits for them, as it hides nothing.
 */
export function AdminShell({
  email,
  role,
  openTickets,
  notifications,
  locale,
  timeZone,
  children,
}: {
  email: string;
  /** The member's staff role: the menu, the search and the tickets' count show what it may use. */
  role: StaffRole | null;
  /** The open tickets (null when the role does not answer tickets). */
  openTickets: number | null;
  /**
   * The admin's own notifications (new orders and tickets, the worker's failures): the bell,
   * shown even when there are none.
   */
  notifications?: ShellUser["notifications"];
  locale?: string;
  /** The site's time zone, in which the bell writes its times. */
  timeZone: string;
  children: ReactNode;
}) {
  const { t } = useTranslation("admin");
  const [collapsed, setCollapsed] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const logoutForm = `${useId()}-logout`;
  // The drawer is for narrow screens: turned into a desktop (a phone on its side, a window made wider),
  // it closes rather than stay open, hidden, over a page it makes inert.
  useEffect(() => {
    if (!drawer) return;
    const desktop = window.matchMedia("(min-width: 48rem)");
    const close = () => desktop.matches && setDrawer(false);
    close();
    desktop.addEventListener("change", close);
    return () => desktop.removeEventListener("change", close);
  }, [drawer]);
  const location = useLocation();
  return (
    <Dialog inPage open={drawer} onOpenChange={setDrawer}>
      <div className="flex min-h-screen bg-muted">
        <aside
          className={cn(
            "sticky top-0 hidden h-screen shrink-0 bg-secondary md:block",
            collapsed ? "w-16" : "w-64",
          )}
        >
          <Sidebar collapsed={collapsed} role={role} />
        </aside>
        {/* From the start side (the right in Arabic), sliding in unless motion is reduced. */}
        <ModalDialog
          aria-label={t("shell.title")}
          className="m-0 me-auto h-dvh max-h-none w-72 max-w-[85vw] bg-secondary p-0 backdrop:bg-black/50 transition-transform duration-200 motion-reduce:transition-none starting:-translate-x-full rtl:starting:translate-x-full md:hidden"
        >
          <Sidebar collapsed={false} onNavigate={() => setDrawer(false)} role={role} />
        </ModalDialog>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex items-center gap-2 border-b bg-background px-3 py-2">
            <DialogTrigger asChild>
              <Button
                variant="ghost"
                size="icon"
                className="md:hidden"
                aria-label={t("shell.openMenu")}
              >
                <MenuIcon aria-hidden />
              </Button>
            </DialogTrigger>
            <Button
              variant="ghost"
              size="icon"
              className="hidden md:inline-flex"
              aria-label={collapsed ? t("shell.expand") : t("shell.collapse")}
              aria-pressed={collapsed}
              onClick={() => setCollapsed((c) => !c)}
            >
              <PanelLeftIcon className="rtl:rotate-180" aria-hidden />
            </Button>
            <span className="hidden font-bold sm:inline">{t("shell.title")}</span>
            {can(role, "clients.view") ? (
              <Form
                method="get"
                action="/admin/search"
                role="search"
                className="ms-auto flex min-w-0 flex-1 items-center gap-1 sm:max-w-sm"
              >
                <label htmlFor="admin-search" className="sr-only">
                  {t("shell.search")}
                </label>
                <Input
                  id="admin-search"
                  name="q"
                  placeholder={t("shell.search")}
                  className="h-9 min-w-0"
                  key={location.pathname}
                />
                <Button
                  type="submit"
                  size="icon"
                  variant="ghost"
                  aria-label={t("shell.searchButton")}
                >
                  <SearchIcon aria-hidden />
                </Button>
              </Form>
            ) : (
              <span className="ms-auto" />
            )}
            <NotificationBell
              notifications={notifications}
              locale={locale ?? "en"}
              timeZone={timeZone}
              allHref={ADMIN_NOTIFICATIONS_PATH}
            />
            {openTickets !== null ? (
              <Button
                asChild
                variant="ghost"
                size="icon"
                className="relative"
                aria-label={`${t("shell.notifications")}: ${openTickets}`}
              >
                <Link to="/admin/tickets?status=open">
                  <LifeBuoyIcon aria-hidden />
                  {openTickets > 0 ? (
                    <span className="absolute -end-0.5 -top-0.5 min-w-5 rounded-full bg-destructive px-1 text-center text-xs font-bold text-white">
                      {openTickets}
                    </span>
                  ) : null}
                </Link>
              </Button>
            ) : null}
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="icon" aria-label={t("shell.userMenu")}>
                  <UserIcon aria-hidden />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuLabel dir="ltr">{email}</DropdownMenuLabel>
                <DropdownMenuItem asChild>
                  <Link to={ADMIN_ACCOUNT_PATH}>{t("shell.account")}</Link>
                </DropdownMenuItem>
                {can(role, "settings.manage") ? (
                  <DropdownMenuItem asChild>
                    <Link to="/admin/settings">{t("shell.settings")}</Link>
                  </DropdownMenuItem>
                ) : null}
                {/* A button of the form below: it posts before the scripts run too, and a form in the
                  menu would be a child of the menu that is no item. */}
                <DropdownMenuItem asChild>
                  <button type="submit" form={logoutForm} className="w-full text-start">
                    {t("shell.logout")}
                  </button>
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
            <Form id={logoutForm} method="post" action="/logout" hidden />
          </header>
          <div className="min-w-0 flex-1 p-4 md:p-6">{children}</div>
        </div>
      </div>
    </Dialog>
  );
}
