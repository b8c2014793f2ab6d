import { Pager } from "~/components/data-table/pager";
import {
  dashboardTabPath,
  type DashboardTab,
} from "~/domain/customer-dashboard/customer-dashboard";

/** A dashboard tab's pages (services, orders, tickets), under its list; nothing while one page holds all. */
export function TabPager({
  tab,
  page,
  hasMore,
}: {
  tab: DashboardTab;
  page: number;
  hasMore: boolean;
}) {
  if (page <= 1 && !hasMore) return null;
  return (
    <Pager
      page={page}
      hasMore={hasMore}
      href={(p) => `${dashboardTabPath(tab)}?page=${p}`}
      labels={{ previous: "‹", next: "›" }}
    />
  );
}
