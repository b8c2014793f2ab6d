import { useTranslation } from "~/i18n/use-translation";
import { Outlet } from "react-router";
import { MaintenanceBanner } from "~/components/layout/maintenance-banner";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { useRootData } from "~/root";

export default function SiteLayout() {
  const { t } = useTranslation();
  const root = useRootData();
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
        <Outlet />
      </div>
      <SiteFooter {...shell} />
    </div>
  );
}
