import { adminInvoicesQuerySchema } from "~/domain/invoices/invoices.schemas";
import { listDocumentsForAdmin } from "~/domain/invoices/invoices.server";
import { AdminInvoicesPage } from "~/features/admin-invoices/invoices-page";
import { adminPage, queryOf } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/invoices";
import { requestContext } from "~/context.server";

// /admin/invoices (issue 26): every invoice, receipt and credit note, filtered by kind and state and
// searched by number, email or name; each opens as its page (/invoices/:number), where a refund is made.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "admin");
  const query = queryOf(url, adminInvoicesQuerySchema);
  const list = await listDocumentsForAdmin(context.services.db, query);
  return { meta: { title: t("nav.invoices") }, ...list, query, locale: context.locale };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminInvoices({ loaderData }: Route.ComponentProps) {
  return <AdminInvoicesPage {...loaderData} />;
}
