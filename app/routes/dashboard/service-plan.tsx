import { data } from "react-router";
import { z } from "~/lib/zod";
import { requestContext } from "~/context.server";
import { coinPurchaseWay } from "~/components/layout/coin-dialog";
import { servicesTabPath } from "~/domain/hosting-services/hosting-services";
import { changePlan, loadPlanChangePage } from "~/domain/hosting-services/plan-change.server";
import {
  changePlanSchema,
  planChangeQuerySchema,
  planServiceIdSchema,
} from "~/domain/hosting-services/plan-change.schemas";
import { PlanChangePage, type PlanChangeError } from "~/features/dashboard/plan-change-page";
import { parseForm } from "~/http/form.server";
import { redirectWithToast } from "~/http/form-answers.server";
import { requireUser } from "~/http/guards.server";
import { unknownForm } from "~/http/route-request.server";
import { statusOf } from "~/http/result-status";
import { revalidateOnConflict } from "~/lib/revalidate-on-conflict";
import { metaFor } from "~/lib/route-meta";
import { useRootData } from "~/root";
import type { Route } from "./+types/service-plan";

// /dashboard/services/:id/plan (docs/self-service.md): the plans the customer's service may move to,
// and with ?to= the confirmation of one (what it costs or gives back, the new limits, the balance
// after); only its confirmed post changes anything. Another customer's service, and an id that is
// none, get the 404 page.

export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const id = planServiceIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const query = planChangeQuerySchema.parse(Object.fromEntries(url.searchParams));
  const page = await loadPlanChangePage(context.services.db, {
    userId: user.id,
    serviceId: id.data,
    toProductId: query.to,
    invoicing: context.settings.invoicing,
    now: context.services.clock(),
  });
  if (!page.ok) throw data(null, { status: 404 });
  const t = context.i18n.getFixedT(null, "services");
  return {
    meta: { title: t("planChange.pageTitle", { server: page.service.serverName }) },
    page,
    // A fresh key per confirmation shown: a double click or a reload of the confirmed post changes once.
    changeKey: page.confirmation?.ok ? crypto.randomUUID() : null,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const intentSchema = z.object({ intent: z.string().optional() });

export async function action({ request, url, params, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const id = planServiceIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const { intent } = intentSchema.parse(
    Object.fromEntries(
      await request
        .clone()
        .formData()
        .catch(() => new FormData()),
    ),
  );
  if (intent !== "change-plan") return unknownForm("dashboard.unknownForm");
  const form = await parseForm(request, changePlanSchema);
  if (!form.ok)
    return data(
      { ok: false as const, message: "services.planChange.errors.notAllowed" as const },
      { status: 400 },
    );
  const result = await changePlan(context.services.db, {
    userId: user.id,
    serviceId: id.data,
    toProductId: form.data.toProductId,
    idempotencyKey: form.data.idempotencyKey,
    shown: { amountCents: form.data.shownAmount, direction: form.data.shownDirection },
    settings: context.settings,
    now: context.services.clock(),
  });
  if (!result.ok)
    return data(
      {
        ok: false as const,
        message: result.error,
        missingCents: "missingCents" in result ? result.missingCents : undefined,
        totalCents: "totalCents" in result ? result.totalCents : undefined,
      },
      { status: statusOf(result) },
    );
  throw redirectWithToast(
    servicesTabPath(),
    result.change.direction === "upgrade" ? "toast.planUpgraded" : "toast.planDowngraded",
  );
}

// A refusal for the state of things (409: the amount moved, a short balance) reloads the page, which
// then shows the confirmation as it is now.
export const shouldRevalidate = revalidateOnConflict;

export default function ServicePlan({ loaderData, actionData }: Route.ComponentProps) {
  const { page, changeKey, locale } = loaderData;
  // How coins are bought now, as the shell says (the coin dialog): where "Add coins" leads.
  const root = useRootData();
  const coinWay = root?.user ? coinPurchaseWay(root.settings, root.user) : "closed";
  const error: PlanChangeError | undefined =
    actionData && !actionData.ok
      ? {
          message: actionData.message,
          missingCents:
            "missingCents" in actionData ? Number(actionData.missingCents ?? 0) : undefined,
          totalCents: "totalCents" in actionData ? Number(actionData.totalCents ?? 0) : undefined,
        }
      : undefined;
  return (
    <PlanChangePage
      page={page}
      changeKey={changeKey}
      coinWay={coinWay}
      locale={locale}
      error={error}
    />
  );
}
