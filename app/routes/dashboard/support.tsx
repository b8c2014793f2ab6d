import { requestContext } from "~/context.server";
import { dashboardQuerySchema } from "~/domain/customer-dashboard/customer-dashboard.schemas";
import { loadSupportTab } from "~/domain/customer-dashboard/customer-dashboard.server";
import { SupportTab } from "~/features/dashboard/dashboard-view";
import { TabPager } from "~/features/dashboard/tab-pager";
import { requireUser } from "~/http/guards.server";
import type { Route } from "./+types/support";

// /dashboard/support: the customer's tickets, paged (?page=). No form of its own: a ticket is opened on
// /support/new.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const query = dashboardQuerySchema.parse(Object.fromEntries(url.searchParams));
  return {
    view: await loadSupportTab(context.services.db, user.id, query),
    ticketsOpen: context.settings.features.tickets,
    locale: context.locale,
  };
}

export default function Support({ loaderData }: Route.ComponentProps) {
  const { view } = loaderData;
  return (
    <>
      <SupportTab
        tickets={view.tickets}
        ticketsOpen={loaderData.ticketsOpen}
        locale={loaderData.locale}
      />
      <TabPager tab="support" page={view.page} hasMore={view.hasMore} />
    </>
  );
}
