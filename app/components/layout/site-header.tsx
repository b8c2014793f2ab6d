import { BellIcon, ChevronDownIcon, MenuIcon, ServerIcon, XIcon } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, NavLink, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { NOTIFICATION_LABELS } from "~/domain/notifications/notifications";
import { cn } from "~/lib/utils";
import { CoinDialog } from "./coin-dialog";
import { LanguageSwitcher } from "./language-switcher";
import { formatCoins } from "~/lib/money";
import type { ShellNotification, ShellProps, ShellUser } from "./types";

const serviceLinks = [
  { to: "/services/samp", key: "nav.sampHosting" },
  { to: "/services/mta", key: "nav.mtaHosting" },
  { to: "/services/vps", key: "nav.vpsHosting" },
] as const;

const navClass = ({ isActive }: { isActive: boolean }) =>
  cn("rounded-md px-3 py-2 text-sm font-medium hover:bg-muted", isActive && "text-primary");

export function SiteHeader({ user, settings, locale }: ShellProps) {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const close = () => setMenuOpen(false);
  // The admin's features switch: with registration closed, nothing points at /register.
  const registrationOpen = settings.features.registration;

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold" onClick={close}>
          <span className="flex size-8 items-center justify-center rounded-md bg-primary text-primary-foreground">
            <ServerIcon className="size-5" aria-hidden />
          </span>
          <span>{settings.general.siteName}</span>
        </Link>

        <nav aria-label={t("nav.mainNavigation")} className="hidden items-center gap-1 md:flex">
          <NavLink to="/" end className={navClass}>
            {t("nav.home")}
          </NavLink>
          <DropdownMenu>
            <DropdownMenuTrigger className="flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium hover:bg-muted">
              {t("nav.services")}
              <ChevronDownIcon className="size-4" aria-hidden />
            </DropdownMenuTrigger>
            <DropdownMenuContent align="start">
              {serviceLinks.map((link) => (
                <DropdownMenuItem key={link.to} asChild>
                  <Link to={link.to}>{t(link.key)}</Link>
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
          <NavLink to="/about" className={navClass}>
            {t("nav.about")}
          </NavLink>
          <NavLink to="/contact" className={navClass}>
            {t("nav.contact")}
          </NavLink>
        </nav>

        <div className="ms-auto hidden items-center gap-2 md:flex">
          <LanguageSwitcher locale={locale} id="language-header" />
          {user ? (
            <>
              <NotificationBell notifications={user.notifications} locale={locale} />
              <Button asChild variant="ghost" size="sm">
                <Link to="/dashboard">{t("nav.dashboard")}</Link>
              </Button>
              <CoinDialog user={user} settings={settings} locale={locale} />
              {user.role === "admin" ? (
                <Button asChild variant="ghost" size="sm">
                  <Link to="/admin">{t("nav.admin")}</Link>
                </Button>
              ) : null}
              <Form method="post" action="/logout">
                <Button type="submit" variant="outline" size="sm">
                  {t("nav.logout")}
                </Button>
              </Form>
            </>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm">
                <Link to="/login">{t("nav.login")}</Link>
              </Button>
              {registrationOpen ? (
                <Button asChild size="sm">
                  <Link to="/register">{t("nav.register")}</Link>
                </Button>
              ) : null}
            </>
          )}
        </div>

        <Button
          variant="ghost"
          size="icon"
          className="ms-auto md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <XIcon aria-hidden /> : <MenuIcon aria-hidden />}
        </Button>
      </div>

      {menuOpen ? (
        <nav id="mobile-menu" aria-label={t("nav.mainNavigation")} className="border-t md:hidden">
          <div className="mx-auto grid max-w-7xl gap-1 px-4 py-3">
            <NavLink to="/" end className={navClass} onClick={close}>
              {t("nav.home")}
            </NavLink>
            <p className="px-3 pt-2 text-xs font-semibold text-muted-foreground uppercase">
              {t("nav.services")}
            </p>
            {serviceLinks.map((link) => (
              <NavLink key={link.to} to={link.to} className={navClass} onClick={close}>
                {t(link.key)}
              </NavLink>
            ))}
            <NavLink to="/about" className={navClass} onClick={close}>
              {t("nav.about")}
            </NavLink>
            <NavLink to="/contact" className={navClass} onClick={close}>
              {t("nav.contact")}
            </NavLink>
            <LanguageSwitcher locale={locale} id="language-mobile" className="px-3 pt-2" />
            <div className="mt-2 flex flex-wrap items-center gap-2 border-t pt-3">
              {user ? (
                <>
                  <NotificationBell notifications={user.notifications} locale={locale} />
                  <Button asChild variant="ghost" size="sm">
                    <Link to="/dashboard" onClick={close}>
                      {t("nav.dashboard")}
                    </Link>
                  </Button>
                  <CoinDialog user={user} settings={settings} locale={locale} />
                  {user.role === "admin" ? (
                    <Button asChild variant="ghost" size="sm">
                      <Link to="/admin" onClick={close}>
                        {t("nav.admin")}
                      </Link>
                    </Button>
                  ) : null}
                  <Form method="post" action="/logout">
                    <Button type="submit" variant="outline" size="sm">
                      {t("nav.logout")}
                    </Button>
                  </Form>
                </>
              ) : (
                <>
                  <Button asChild variant="ghost" size="sm">
                    <Link to="/login" onClick={close}>
                      {t("nav.login")}
                    </Link>
                  </Button>
                  {registrationOpen ? (
                    <Button asChild size="sm">
                      <Link to="/register" onClick={close}>
                        {t("nav.register")}
                      </Link>
                    </Button>
                  ) : null}
                </>
              )}
            </div>
          </div>
        </nav>
      ) : null}
    </header>
  );
}

/** The bell: unread notifications; opening the list marks them read. Each links to what it is about. */
function NotificationBell({
  notifications,
  locale,
}: {
  notifications?: ShellUser["notifications"];
  locale: string;
}) {
  const { t } = useTranslation();
  const { t: tTickets } = useTranslation("tickets");
  const fetcher = useFetcher();
  const unread = fetcher.state !== "idle" || fetcher.data ? 0 : (notifications?.unread ?? 0);
  const items = notifications?.items ?? [];
  const text = (item: ShellNotification) => {
    const params: Record<string, string | number> = { ...item.params };
    if (typeof params.amountCents === "number")
      params.amount = formatCoins(params.amountCents, locale);
    return (tTickets as (key: string, options?: object) => string)(
      NOTIFICATION_LABELS[item.kind],
      params,
    );
  };
  return (
    <DropdownMenu
      onOpenChange={(open) => {
        if (open && (notifications?.unread ?? 0) > 0 && !fetcher.data) {
          void fetcher.submit(null, { method: "post", action: "/notifications" });
        }
      }}
    >
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={t("nav.notificationsCount", { count: unread })}
        >
          <BellIcon aria-hidden />
          {unread > 0 ? (
            <span className="absolute -end-0.5 -top-0.5 min-w-5 rounded-full bg-destructive px-1 text-center text-xs font-bold text-white">
              {unread}
            </span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80 max-w-[calc(100vw-2rem)]">
        <DropdownMenuLabel>{t("nav.notifications")}</DropdownMenuLabel>
        {items.length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">{t("nav.noNotifications")}</p>
        ) : (
          items.map((item) => (
            <DropdownMenuItem key={item.id} asChild>
              <Link to={item.link} className={item.read ? "text-muted-foreground" : "font-medium"}>
                {text(item)}
              </Link>
            </DropdownMenuItem>
          ))
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
