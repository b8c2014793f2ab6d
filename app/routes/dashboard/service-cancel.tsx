import { data } from "react-router";
import { requestContext } from "~/context.server";
import {
  cancelFormSchema,
  cancelServiceIdSchema,
} from "~/domain/hosting-services/cancellation.schemas";
import {
  loadCancelPage,
  requestRefund,
  scheduleEndOfTerm,
  withdrawCancellation,
} from "~/domain/hosting-services/cancellation.server";
import { CancelPage, type CancelAnswer } from "~/features/dashboard/cancel-page";
import { parseForm } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/service-cancel";

// /dashboard/services/:id/cancel (docs/self-service.md): the customer cancels a service of theirs, at the
// end of its term or, within 14 days of its order, with a refund; then follows the request and may
// withdraw it until it is decided. Another customer's service and an id that is none get the 404 page.

export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const id = cancelServiceIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const view = await loadCancelPage(context.services.db, {
    userId: user.id,
    serviceId: id.data,
    now: context.services.clock(),
  });
  if (!view) throw data(null, { status: 404 });
  const t = context.i18n.getFixedT(null, "services");
  return {
    meta: { title: t("cancel.title", { service: view.service.name }) },
    view,
    locale: context.locale,
    timeZone: context.settings.general.timeZone,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, params, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const id = cancelServiceIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const form = await parseForm(request, cancelFormSchema);
  if (!form.ok)
    return data(
      {
        ok: false,
        message:
          form.fieldErrors.reason ??
          form.fieldErrors.reasonText ??
          "services.cancel.errors.unknownForm",
        fieldErrors: form.fieldErrors,
        values: form.values,
      } satisfies CancelAnswer,
      { status: 400 },
    );
  const db = context.services.db;
  const input = { userId: user.id, serviceId: id.data, now: context.services.clock() };
  const result =
    form.data.intent === "withdraw"
      ? await withdrawCancellation(db, input)
      : form.data.intent === "end-of-term"
        ? await scheduleEndOfTerm(db, { ...input, ...form.data })
        : await requestRefund(db, { ...input, ...form.data });
  if (!result.ok)
    return data({ ok: false, message: result.error } satisfies CancelAnswer, {
      status: statusOf(result),
    });
  const { kind, state } = result.cancellation;
  return {
    ok: true,
    message:
      state === "withdrawn"
        ? kind === "end_of_term"
          ? "services.cancel.answers.kept"
          : "services.cancel.answers.withdrawn"
        : state === "approved"
          ? "services.cancel.answers.approved"
          : state === "requested"
            ? "services.cancel.answers.requested"
            : "services.cancel.answers.scheduled",
  } satisfies CancelAnswer;
}

export default function ServiceCancel({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <CancelPage
      view={loaderData.view}
      locale={loaderData.locale}
      timeZone={loaderData.timeZone}
      answer={actionData}
    />
  );
}
