import { Outlet, useLocation } from "react-router";
import { requestContext } from "~/context.server";
import { dashboardTabOf } from "~/domain/customer-dashboard/customer-dashboard";
import { loadDashboardCards } from "~/domain/customer-dashboard/customer-dashboard.server";
import { DashboardShell } from "~/features/dashboard/dashboard-view";
import { emailVerificationRequired } from "~/http/email-verification.server";
import { requireUser } from "~/http/guards.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/layout";
import { revalidateOnConflict } from "~/lib/revalidate-on-conflict";

// The dashboard's shell: the welcome line, the four cards and the tabs' links, around the tab's own
// route (overview.tsx, services.tsx, ...), each of which reads only what it shows and answers only its
// own forms.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const t = context.i18n.getFixedT(null, "common");
  return {
    meta: { title: t("dashboard.title") },
    name: user.name,
    cards: await loadDashboardCards(context.services.db, user.id),
    locale: context.locale,
    // Verified addresses (docs/accounts.md): the notice asks an unverified account to confirm its
    // address, only when mail can reach it.
    address: {
      email: user.email,
      verified: user.emailVerified,
      mailConfigured: context.services.mailEnabled,
      required: emailVerificationRequired(context),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

// The cards follow a conflict on a tab as the tab itself does.
export const shouldRevalidate = revalidateOnConflict;

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  return (
    <DashboardShell {...loaderData} tab={dashboardTabOf(pathname)}>
      <Outlet />
    </DashboardShell>
  );
}
