import { ConstructionIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { navItemForPath } from "~/components/layout/admin-nav";
import { requirePermission } from "~/http/guards.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/coming-soon";
import { requestContext } from "~/context.server";

// One module for every admin page that is not built yet: it says so plainly, inside the shell.
export function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  // The menu's entry for the page names the permission its area needs.
  const item = navItemForPath(url.pathname);
  requirePermission(url, context, item?.permission ?? null);
  const label = item?.label ?? "nav.dashboard";
  const t = context.i18n.getFixedT(null, "admin");
  return { label, meta: { title: t(label) } };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function ComingSoon({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const title = t(loaderData.label);
  return (
    <main className="grid gap-4">
      <h1 className="text-2xl font-bold">{title}</h1>
      <div className="flex items-center gap-3 rounded-lg border bg-background p-6 text-muted-foreground">
        <ConstructionIcon className="size-6 shrink-0 text-accent" aria-hidden />
        <p>{t("comingSoon.text")}</p>
      </div>
    </main>
  );
}
