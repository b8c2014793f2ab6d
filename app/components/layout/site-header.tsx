import { ChevronDownIcon, MenuIcon, ServerIcon, XIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, NavLink } from "react-router";
import { usePageScripts } from "~/components/page-scripts";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/utils";
// The bell and the coin dialog load with the page, not on demand: a click made before on-demand code had
// arrived was lost (docs/performance.md). Anonymous visitors get no React at all (ADR 13).
import { CoinDialog } from "./coin-dialog";
import { LanguageSwitcher } from "./language-switcher";
import { NotificationBell } from "./notification-bell";
import type { ShellProps } from "./types";

const serviceLinks = [
  { to: "/services/samp", key: "nav.sampHosting" },
  { to: "/services/mta", key: "nav.mtaHosting" },
  { to: "/services/vps", key: "nav.vpsHosting" },
] as const;

const navClass = ({ isActive }: { isActive: boolean }) =>
  cn("rounded-md px-3 py-2 text-sm font-medium hover:bg-muted", isActive && "text-primary");

/**
 * On a page served without React (an anonymous visitor's public page) the menus are in the HTML, closed,
 * and site-header.enhance.ts opens and closes them; the markup is the same for both (aria-expanded,
 * hidden, icons shown by aria-expanded), so each state looks alike whichever script drives it.
 */
export function SiteHeader({ user, settings, locale }: ShellProps) {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  // Hydrated, the phone menu is rendered only while open: for a signed-in visitor it holds a second
  // notification bell and coin dialog.
  const staticPage = usePageScripts() !== "react";
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
          <ServicesMenu />
          <NavLink to="/about" className={navClass}>
            {t("nav.about")}
          </NavLink>
          <NavLink to="/contact" className={navClass}>
            {t("nav.contact")}
          </NavLink>
        </nav>

        <div className="ms-auto hidden items-center gap-2 md:flex">
          <LanguageSwitcher locale={locale} id="language-header" />
          <AccountLinks
            user={user}
            settings={settings}
            locale={locale}
            registrationOpen={registrationOpen}
          />
        </div>

        <Button
          variant="ghost"
          size="icon"
          className="group ms-auto md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
          data-menu-toggle=""
          data-open-label={t("nav.openMenu")}
          data-close-label={t("nav.closeMenu")}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {/* The icon follows aria-expanded, whichever script sets it. */}
          <MenuIcon aria-hidden className="group-aria-expanded:hidden" />
          <XIcon aria-hidden className="hidden group-aria-expanded:block" />
        </Button>
      </div>

      {menuOpen || staticPage ? (
        <nav
          id="mobile-menu"
          aria-label={t("nav.mainNavigation")}
          className="border-t md:hidden"
          hidden={!menuOpen}
        >
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
              <AccountLinks
                user={user}
                settings={settings}
                locale={locale}
                registrationOpen={registrationOpen}
                onNavigate={close}
              />
            </div>
          </div>
        </nav>
      ) : null}
    </header>
  );
}

/**
 * The signed-in visitor's bell, dashboard, coins, admin and log-out, or the visitor's log-in and
 * register: in the header's bar and again in the phone menu, which closes when a link is followed.
 */
function AccountLinks({
  user,
  settings,
  locale,
  registrationOpen,
  onNavigate,
}: ShellProps & { registrationOpen: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return user ? (
    <>
      <NotificationBell notifications={user.notifications} locale={locale} />
      <Button asChild variant="ghost" size="sm">
        <Link to="/dashboard" onClick={onNavigate}>
          {t("nav.dashboard")}
        </Link>
      </Button>
      <CoinDialog user={user} settings={settings} locale={locale} />
      {user.role === "admin" ? (
        <Button asChild variant="ghost" size="sm">
          <Link to="/admin" onClick={onNavigate}>
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
        <Link to="/login" onClick={onNavigate}>
          {t("nav.login")}
        </Link>
      </Button>
      {registrationOpen ? (
        <Button asChild size="sm">
          <Link to="/register" onClick={onNavigate}>
            {t("nav.register")}
          </Link>
        </Button>
      ) : null}
    </>
  );
}

/**
 * The Services links as a disclosure: a button that shows a list of links (the navigation pattern for
 * a few links), closed by Escape, a click elsewhere or leaving it with Tab. No menu library: this is on
 * every public page.
 */
function ServicesMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      box.current?.querySelector("button")?.focus();
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);
  return (
    <div
      ref={box}
      className="relative"
      data-disclosure=""
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls="services-menu"
        onClick={() => setOpen((value) => !value)}
        className="group flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium hover:bg-muted"
      >
        {t("nav.services")}
        <ChevronDownIcon
          className="size-4 transition-transform group-aria-expanded:rotate-180"
          aria-hidden
        />
      </button>
      <ul
        id="services-menu"
        hidden={!open}
        className="absolute start-0 top-full z-50 mt-1 min-w-48 rounded-md border bg-background p-1 shadow-md"
      >
        {serviceLinks.map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              onClick={() => setOpen(false)}
              className="block rounded-sm px-2 py-1.5 text-sm outline-none hover:bg-muted focus-visible:bg-muted"
            >
              {t(link.key)}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
