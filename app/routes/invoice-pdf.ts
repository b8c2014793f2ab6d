import { documentPdf } from "~/domain/invoices/document-pdf.server";
import { documentViewTools } from "~/domain/invoices/invoices";
import { documentNumberSchema } from "~/domain/invoices/invoices.schemas";
import { requireUser } from "~/http/guards.server";
import { can } from "~/domain/staff/permissions";
import { fileNotFound, pdfResponse } from "~/http/pdf.server";
import { directionOf } from "~/i18n/locales";
import type { Route } from "./+types/invoice-pdf";
import { requestContext } from "~/context.server";

// /invoices/:number/pdf (docs/invoices.md, ADR 40): a resource route (no page), the document as
// a PDF in the reader's language, to its owner and to admins, as its page is; anyone else, and a number
// that is no document, gets a 404.
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const number = documentNumberSchema.safeParse(params.number);
  if (!number.success) return fileNotFound();
  const t = context.i18n.getFixedT(null, "invoices");
  const tOrders = context.i18n.getFixedT(null, "orders");
  const file = await documentPdf(context.services.db, {
    number: number.data,
    reader: { userId: user.id, isAdmin: can(user.staffRole, "invoices.view") },
    locale: context.locale,
    direction: directionOf(context.locale),
    tools: documentViewTools({
      t: (key, values) => t(key, values),
      tOrders: (key) => tOrders(key),
      locale: context.locale,
      timeZone: context.settings.general.timeZone,
    }),
  });
  return file ? pdfResponse(file) : fileNotFound();
}
