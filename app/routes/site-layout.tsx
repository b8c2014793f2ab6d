import { Outlet } from "react-router";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { useRootData } from "~/root";

export default function SiteLayout() {
  const root = useRootData();
  if (!root) return <Outlet />;
  const shell = { user: root.user, settings: root.settings, locale: root.locale };
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader {...shell} />
      <div id="main" className="flex-1">
        <Outlet />
      </div>
      <SiteFooter {...shell} />
    </div>
  );
}
