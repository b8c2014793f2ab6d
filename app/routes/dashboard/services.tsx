import { data } from "react-router";
import { z } from "~/lib/zod";
import { requestContext } from "~/context.server";
import { dashboardQuerySchema } from "~/domain/customer-dashboard/customer-dashboard.schemas";
import { loadServicesTab } from "~/domain/customer-dashboard/customer-dashboard.server";
import { servicesTabPath } from "~/domain/hosting-services/hosting-services";
import { autoRenewSchema, renewSchema } from "~/domain/hosting-services/hosting-services.schemas";
import { setAutoRenew } from "~/domain/hosting-services/customer-services.server";
import { cancellationBadgesOf } from "~/domain/hosting-services/cancellation.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { ServicesPanel } from "~/features/dashboard/services-panel";
import { TabPager } from "~/features/dashboard/tab-pager";
import { parseForm } from "~/http/form.server";
import { redirectWithToast } from "~/http/form-answers.server";
import { requireUser } from "~/http/guards.server";
import { unknownForm } from "~/http/route-request.server";
import { statusOf } from "~/http/result-status";
import { revalidateOnConflict } from "~/lib/revalidate-on-conflict";
import { coinPurchaseWay } from "~/components/layout/coin-dialog";
import { useRootData } from "~/root";
import type { Route } from "./+types/services";

// /dashboard/services: the customer's services, the orders waiting to become one, and with ?renew= the
// confirmation of a renewal (the step before any charge). Its forms: automatic renewal on or off, and
// the confirmed renewal.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const query = dashboardQuerySchema.parse(Object.fromEntries(url.searchParams));
  const view = await loadServicesTab(context.services.db, user.id, query, {
    invoicing: context.settings.invoicing,
  });
  return {
    view,
    // A fresh key per confirmation shown: a double click or a reload of the confirmed post renews once.
    renewKey: view.renewal?.ok ? crypto.randomUUID() : null,
    // The dates: when the lifecycle suspends or ends a service, in the site's zone.
    lifecycle: {
      enabled: context.settings.lifecycle.enabled,
      graceDays: context.settings.lifecycle.graceDays,
      terminationDays: context.settings.lifecycle.terminationDays,
    },
    timeZone: context.settings.general.timeZone,
    // Said under each order waiting for approval.
    approvalHours: context.settings.general.approvalHours,
    // The services with an open cancellation: "Ends at expiry", "Refund requested".
    cancellations: await cancellationBadgesOf(context.services.db, user.id),
    locale: context.locale,
  };
}

const intentSchema = z.object({ intent: z.string().optional() });

/** A form that does not parse names no service of the customer's. */
function noSuchService() {
  return data(
    { ok: false as const, message: "services.errors.notFound" as const },
    { status: 400 },
  );
}

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const db = context.services.db;
  const { intent } = intentSchema.parse(
    Object.fromEntries(
      await request
        .clone()
        .formData()
        .catch(() => new FormData()),
    ),
  );
  if (intent === "auto-renew") {
    const form = await parseForm(request, autoRenewSchema);
    if (!form.ok) return noSuchService();
    const result = await setAutoRenew(db, {
      userId: user.id,
      serviceId: form.data.serviceId,
      autoRenew: form.data.autoRenew,
    });
    if (!result.ok)
      return data({ ok: false as const, message: result.error }, { status: statusOf(result) });
    throw redirectWithToast(
      servicesTabPath(),
      result.service.autoRenew ? "toast.autoRenewOn" : "toast.autoRenewOff",
    );
  }
  if (intent === "renew") {
    const form = await parseForm(request, renewSchema);
    if (!form.ok) return noSuchService();
    const result = await renewService(db, {
      userId: user.id,
      serviceId: form.data.serviceId,
      idempotencyKey: form.data.idempotencyKey,
      shownPriceCents: form.data.shownPrice,
      settings: context.settings,
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
    throw redirectWithToast(servicesTabPath(), "toast.serviceRenewed");
  }
  return unknownForm("dashboard.unknownForm");
}

export const shouldRevalidate = revalidateOnConflict;

export default function Services({ loaderData, actionData }: Route.ComponentProps) {
  const { view, locale } = loaderData;
  // How coins are bought now, as the shell says (the coin dialog): where "Add coins" leads.
  const root = useRootData();
  const coinWay = root?.user ? coinPurchaseWay(root.settings, root.user) : "closed";
  return (
    <>
      <ServicesPanel
        services={view.services}
        waitingOrders={view.waitingOrders}
        renewal={view.renewal}
        renewKey={loaderData.renewKey}
        coinWay={coinWay}
        locale={locale}
        now={view.now}
        lifecycle={loaderData.lifecycle}
        timeZone={loaderData.timeZone}
        approvalHours={loaderData.approvalHours}
        cancellations={loaderData.cancellations}
        error={
          actionData && !actionData.ok
            ? {
                message: actionData.message,
                missingCents:
                  "missingCents" in actionData ? Number(actionData.missingCents ?? 0) : undefined,
                totalCents:
                  "totalCents" in actionData ? Number(actionData.totalCents ?? 0) : undefined,
              }
            : undefined
        }
      />
      <TabPager tab="services" page={view.page} hasMore={view.hasMore} />
    </>
  );
}
