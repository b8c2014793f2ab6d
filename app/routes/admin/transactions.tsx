import { ledgerReportQuerySchema } from "~/domain/coins/ledger-report.schemas";
import { listLedgerForAdmin } from "~/domain/coins/ledger-report.server";
import { TransactionsPage } from "~/features/admin-transactions/transactions-page";
import { adminPage, queryOf } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/transactions";
import { requestContext } from "~/context.server";

// Every customer's coin ledger, filterable by customer, kind and dates, with totals; read-only.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "admin");
  const query = queryOf(url, ledgerReportQuerySchema);
  const report = await listLedgerForAdmin(context.services.db, query);
  return {
    meta: { title: t("nav.transactions") },
    ...report,
    query,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminTransactions({ loaderData }: Route.ComponentProps) {
  return <TransactionsPage {...loaderData} />;
}
