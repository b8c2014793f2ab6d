import { ledgerReportQuerySchema } from "~/domain/coins/ledger-report.schemas";
import { listLedgerForAdmin } from "~/domain/coins/ledger-report.server";
import { TransactionsPage } from "~/features/admin-transactions/transactions-page";
import { adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/transactions";
import { requestContext } from "~/context.server";

// Every customer's coin ledger, filterable by customer, kind and dates, with totals; read-only.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.transactions",
  permission: "invoices.view",
  query: ledgerReportQuerySchema,
  load: ({ db, query }) => listLedgerForAdmin(db, query),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminTransactions({ loaderData }: Route.ComponentProps) {
  return <TransactionsPage {...loaderData} />;
}
