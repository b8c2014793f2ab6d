import { requestContext } from "~/context.server";
import { dashboardQuerySchema } from "~/domain/customer-dashboard/customer-dashboard.schemas";
import { loadBillingTab } from "~/domain/customer-dashboard/customer-dashboard.server";
import { AddCoinsLink, LedgerTable } from "~/features/dashboard/dashboard-view";
import { OrdersList } from "~/features/dashboard/orders-list";
import { TabPager } from "~/features/dashboard/tab-pager";
import { InvoiceList } from "~/features/invoices/invoice-list";
import { requireUser } from "~/http/guards.server";
import { coinPurchaseWay } from "~/components/layout/coin-dialog";
import { useRootData } from "~/root";
import type { Route } from "./+types/billing";

// /dashboard/billing: the coin history, the invoices and receipts, and the orders, each paged on its own
// (?before=, ?invoices=, ?page=). No form of its own.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const query = dashboardQuerySchema.parse(Object.fromEntries(url.searchParams));
  return {
    view: await loadBillingTab(context.services.db, user.id, query),
    // Said under each order waiting for approval.
    approvalHours: context.settings.general.approvalHours,
    locale: context.locale,
  };
}

export default function Billing({ loaderData }: Route.ComponentProps) {
  const { view, locale } = loaderData;
  // How coins are bought now, as the shell says (the coin dialog): where "Add coins" leads.
  const root = useRootData();
  const coinWay = root?.user ? coinPurchaseWay(root.settings, root.user) : "closed";
  return (
    <>
      <div className="grid gap-6">
        <AddCoinsLink way={coinWay} />
        <LedgerTable
          entries={view.ledger.entries}
          nextBefore={view.ledger.nextBefore}
          hasNewer={view.ledger.hasNewer}
          locale={locale}
        />
        <InvoiceList
          documents={view.documents.documents}
          page={view.documents.page}
          hasMore={view.documents.hasMore}
          href={(p) => `/dashboard/billing?invoices=${p}`}
          locale={locale}
        />
        <OrdersList orders={view.orders} locale={locale} approvalHours={loaderData.approvalHours} />
      </div>
      <TabPager tab="billing" page={view.page} hasMore={view.hasMore} />
    </>
  );
}
