import { adminInvoicesQuerySchema } from "~/domain/invoices/invoices.schemas";
import { listDocumentsForAdmin } from "~/domain/invoices/documents.server";
import { AdminInvoicesPage } from "~/features/admin-invoices/invoices-page";
import { adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/invoices";
import { requestContext } from "~/context.server";

// /admin/invoices: every invoice, receipt and credit note, filtered by kind and state and
// searched by number, email or name; each opens as its page (/invoices/:number), where a refund is made.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.invoices",
  permission: "invoices.view",
  query: adminInvoicesQuerySchema,
  load: ({ db, query }) => listDocumentsForAdmin(db, query),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminInvoices({ loaderData }: Route.ComponentProps) {
  return <AdminInvoicesPage {...loaderData} />;
}
