import { ChevronDownIcon, MenuIcon, ServerIcon, XIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useLocation } from "react-router";
import { Link, NavLink } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/utils";
// The bell and the coin dialog load with the page, not on demand: a click made before on-demand code had
// arrived was lost (docs/performance.md). Anonymous visitors get no React at all (ADR 13).
import { CoinDialog } from "./coin-dialog";
import { LanguageSwitcher } from "./language-switcher";
import { ADMIN_NOTIFICATIONS_PATH, NotificationBell } from "./notification-bell";
import { closeMenu, wirePhoneMenu } from "./phone-menu";
import type { ShellProps } from "./types";

/** The hosting pages, in the header's Services menu and the footer's services column. */
export const SERVICE_LINKS = [
  { to: "/services/samp", key: "nav.sampHosting" },
  { to: "/services/mta", key: "nav.mtaHosting" },
  { to: "/services/vps", key: "nav.vpsHosting" },
] as const;

const navClass = ({ isActive }: { isActive: boolean }) =>
  cn("rounded-md px-3 py-2 text-sm font-medium hover:bg-muted", isActive && "text-primary");

/**
 * The phone menu is a popover (`popover` on #mobile-menu, `popovertarget` on its button): the browser
 * opens and closes it before any script has run (a slow phone, right after signing in), as the site's
 * forms work without them, and closes it on Escape or a tap elsewhere. The scripts only add what the
 * browser does not: the button's aria-expanded and its "Close menu" name while open, the menu's place
 * under the header, and closing it when one of its links is followed or a form moves to another page
 * without a page load. React does it here; on a page served without React site-header.enhance.ts does it
 * on the same markup (where every move is a page load).
 *
 * The bell and the coin balance stay in the bar at every width (a signed-in visitor sees unread replies
 * and their balance on a phone without opening anything); below 1024 px the menu holds the rest.
 */
export function SiteHeader({ user, settings, locale }: ShellProps) {
  const { t } = useTranslation();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLElement>(null);
  // undefined until the effect runs: before it, the browser says whether the popover is open.
  const [menuOpen, setMenuOpen] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    if (!button.current || !menu.current) return;
    return wirePhoneMenu(button.current, menu.current, setMenuOpen);
  }, []);
  const close = () => {
    if (menu.current) closeMenu(menu.current);
  };
  // Any move to another page closes the menu, a form's too (signing out, a language): the header stays
  // on the screen across moves, and the menu with it. Not at the first render, when the visitor may have
  // opened it before the scripts ran.
  const { key } = useLocation();
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current === key) return;
    shownKey.current = key;
    if (menu.current) closeMenu(menu.current);
  }, [key]);
  // The admin's features switch: with registration closed, nothing points at /register.
  const registrationOpen = settings.features.registration;
  const account = { user, settings, locale, registrationOpen };

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 lg:gap-4">
        <Link to="/" className="flex min-w-0 items-center gap-2 text-lg font-bold" onClick={close}>
          <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground">
            <ServerIcon className="size-5" aria-hidden />
          </span>
          <span className="truncate">{settings.general.siteName}</span>
        </Link>

        <nav aria-label={t("nav.mainNavigation")} className="hidden items-center gap-1 lg:flex">
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

        <div className="ms-auto flex shrink-0 items-center gap-1 lg:gap-2">
          {/* From 1280 px: below, the bar has no room for it beside a signed-in visitor's links (the menu and
              the footer have one). */}
          <LanguageSwitcher locale={locale} id="language-header" className="hidden xl:flex" />
          <AccountLinks {...account} place="bar" />
        </div>

        <Button
          ref={button}
          variant="ghost"
          size="icon"
          className="group shrink-0 lg:hidden"
          popoverTarget="mobile-menu"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
          data-menu-toggle=""
          data-open-label={t("nav.openMenu")}
          data-close-label={t("nav.closeMenu")}
        >
          {/* The icon follows aria-expanded, whichever script sets it. */}
          <MenuIcon aria-hidden className="group-aria-expanded:hidden" />
          <XIcon aria-hidden className="hidden group-aria-expanded:block" />
        </Button>
      </div>

      <nav
        ref={menu}
        id="mobile-menu"
        popover="auto"
        aria-label={t("nav.mainNavigation")}
        // Under the header (wirePhoneMenu moves it below a banner above the header), as wide as the screen.
        className="fixed inset-x-0 top-16 bottom-auto max-h-[calc(100dvh-4rem)] w-full overflow-y-auto border-b bg-background text-foreground shadow-md lg:hidden"
      >
        <div className="mx-auto grid max-w-7xl gap-1 px-4 py-3">
          <NavLink to="/" end className={navClass} onClick={close}>
            {t("nav.home")}
          </NavLink>
          <p className="px-3 pt-2 text-xs font-semibold text-muted-foreground uppercase">
            {t("nav.services")}
          </p>
          {SERVICE_LINKS.map((link) => (
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
            <AccountLinks {...account} place="menu" onNavigate={close} />
          </div>
        </div>
      </nav>
    </header>
  );
}

/**
 * The signed-in visitor's bell, dashboard, coins, admin and log-out, or the visitor's log-in and
 * register. In the bar (`place: "bar"`) the bell and the balance show at every width and the rest from
 * 1024 px; the phone menu (`place: "menu"`) holds that rest, and closes when a link is followed.
 */
function AccountLinks({
  user,
  settings,
  locale,
  registrationOpen,
  place,
  onNavigate,
}: ShellProps & { registrationOpen: boolean; place: "bar" | "menu"; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const bar = place === "bar";
  // In the bar, what the phone menu holds shows from 1024 px on only: between 768 and 1024 px the bar
  // had no room for it beside the navigation (the page scrolled sideways).
  const rest = bar ? "hidden lg:inline-flex" : undefined;
  return user ? (
    <>
      {bar ? (
        <NotificationBell
          notifications={user.notifications}
          locale={locale}
          timeZone={settings.general.timeZone}
          allHref={user.role === "admin" ? ADMIN_NOTIFICATIONS_PATH : undefined}
        />
      ) : null}
      <Button asChild variant="ghost" size="sm" className={rest}>
        <Link to="/dashboard" onClick={onNavigate}>
          {t("nav.dashboard")}
        </Link>
      </Button>
      {bar ? <CoinDialog user={user} settings={settings} locale={locale} /> : null}
      {user.role === "admin" ? (
        <Button asChild variant="ghost" size="sm" className={rest}>
          <Link to="/admin" onClick={onNavigate}>
            {t("nav.admin")}
          </Link>
        </Button>
      ) : null}
      <Form method="post" action="/logout" className={bar ? "hidden lg:block" : undefined}>
        <Button type="submit" variant="outline" size="sm">
          {t("nav.logout")}
        </Button>
      </Form>
    </>
  ) : (
    <>
      <Button asChild variant="ghost" size="sm" className={rest}>
        <Link to="/login" onClick={onNavigate}>
          {t("nav.login")}
        </Link>
      </Button>
      {registrationOpen ? (
        <Button asChild size="sm" className={rest}>
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
        {SERVICE_LINKS.map((link) => (
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
