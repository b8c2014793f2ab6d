import { useTranslation } from "~/i18n/use-translation";
import { Outlet, useMatches } from "react-router";
import { MaintenanceBanner } from "~/components/layout/maintenance-banner";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { AnnouncementList } from "~/components/ui/announcement-list";
import { listActiveAnnouncements } from "~/domain/announcements/announcements.server";
import { showsSiteAnnouncements } from "~/domain/site/site";
import { isPublicPage } from "~/lib/hydration";
import { useRootData } from "~/root";
import type { Route } from "./+types/site-layout";
import { requestContext } from "~/context.server";

/**
 * The "Everyone" announcements, shown under the header of the public pages in the reader's language
 * (English where the admin wrote none). Loaded here, so they are
 * part of the loaders' data that a visitor's kept page is keyed by (ADR 15): a new, edited or
 * deactivated announcement makes another key and the page is rendered afresh at once. A customer's own
 * pages do not show them: nothing is read for those (one query less on every signed-in page).
 */
export async function loader({ pattern, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  return {
    announcements: showsSiteAnnouncements(pattern)
      ? await listActiveAnnouncements(context.services.db, "public", context.locale)
      : [],
  };
}

export default function SiteLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  // Only the public pages show them: the dashboard lists its own (with the customers' ones).
  const publicPage = isPublicPage(useMatches().map((match) => match.handle));
  if (!root) return <Outlet />;
  const shell = { user: root.user, settings: root.settings, locale: root.locale };
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-background focus:p-2"
      >
        {t("nav.skipToContent")}
      </a>
      {root.user?.role === "admin" && root.settings.general.maintenanceMode ? (
        <MaintenanceBanner className="px-4 pt-2" />
      ) : null}
      <SiteHeader {...shell} />
      <div id="main" className="flex-1">
        {publicPage ? <SiteAnnouncements announcements={loaderData.announcements} /> : null}
        <Outlet />
      </div>
      <SiteFooter {...shell} year={root.year} />
    </div>
  );
}

/**
 * The public pages' announcements. A component of its own so that only the pages that show them read
 * their namespace: reading one puts its catalogue into the page (ADR 29), and a customer's own pages
 * have no use for it.
 */
function SiteAnnouncements({
  announcements,
}: {
  announcements: Route.ComponentProps["loaderData"]["announcements"];
}) {
  const { t } = useTranslation("announcements");
  return (
    <AnnouncementList
      announcements={announcements}
      label={t("shown.label")}
      className="mx-auto max-w-7xl p-4"
    />
  );
}
