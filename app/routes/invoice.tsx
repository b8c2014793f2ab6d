import { data, type ShouldRevalidateFunction } from "react-router";
import { DOCUMENT_KIND_LABELS } from "~/domain/invoices/invoices";
import { documentNumberSchema, refundFormSchema } from "~/domain/invoices/invoices.schemas";
import { recordRefund } from "~/domain/invoices/credit-notes.server";
import { getDocument } from "~/domain/invoices/documents.server";
import { DocumentPage, type RefundResult } from "~/features/invoices/document-page";
import { requireUser } from "~/http/guards.server";
import { can } from "~/domain/staff/permissions";
import { adminForm } from "~/http/route-request.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/invoice";
import { requestContext } from "~/context.server";

// /invoices/:number (docs/invoices.md): a document as a page, to its owner and to admins;
// anyone else, and a number that is no document, gets the 404 page. Staff whose role holds
// invoices.view read any document; those holding invoices.refund refund a paid invoice here.
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const number = documentNumberSchema.safeParse(params.number);
  const found = number.success
    ? await getDocument(context.services.db, number.data, {
        userId: user.id,
        isAdmin: can(user.staffRole, "invoices.view"),
      })
    : undefined;
  if (!found) throw data(null, { status: 404 });
  const t = context.i18n.getFixedT(null, "invoices");
  return {
    meta: { title: `${t(DOCUMENT_KIND_LABELS[found.kind])} ${found.number}` },
    document: found,
    admin: can(user.staffRole, "invoices.view"),
    // The refund form, for a member of the staff whose role may refund.
    mayRefund: can(user.staffRole, "invoices.refund"),
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, params, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(
    request,
    url,
    context,
    refundFormSchema,
    "invoices.refund",
  );
  if (!form.ok)
    return data(
      {
        ok: false,
        message: Object.values(form.fieldErrors)[0] ?? "invoices.errors.refundReasonRequired",
        fieldErrors: form.fieldErrors,
        values: form.values,
      } satisfies RefundResult,
      { status: 400 },
    );
  const result = await recordRefund(context.services.db, {
    number: String(params.number).toUpperCase(),
    method: form.data.method,
    reason: form.data.reason,
    takeBackTerm: form.data.takeBackTerm,
    stopAutoRenew: form.data.stopAutoRenew,
    actorId: admin.id,
  });
  if (!result.ok)
    return data({ ok: false, message: result.error } satisfies RefundResult, {
      status: statusOf(result),
    });
  return {
    ok: true,
    message: "invoices.refund.done",
    creditNote: result.creditNote.number,
    termTakenBack: result.termTakenBack,
    autoRenewStopped: result.autoRenewStopped,
  } satisfies RefundResult;
}

// A refusal (4xx) skips the reload by default; a refund refused because the service changed since
// (409) reloads the page, so the form shows where the service stands now instead of the stale choice.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  actionStatus,
  defaultShouldRevalidate,
}) => actionStatus === 409 || defaultShouldRevalidate;

export default function Invoice({ loaderData, actionData }: Route.ComponentProps) {
  return <DocumentPage {...loaderData} result={actionData} />;
}
