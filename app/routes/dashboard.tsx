import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { renewSchema } from "~/domain/hosting-services/hosting-services";
import { loadCustomerDashboard } from "~/domain/hosting-services/customer-dashboard.server";
import { renewService } from "~/domain/hosting-services/hosting-services.server";
import { ServicesPanel } from "~/features/dashboard/services-panel";
import { parseForm } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { flashToast } from "~/http/toast.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const t = context.i18n.getFixedT(null, "common");
  const { services, orders } = await loadCustomerDashboard(context.services.db, user.id);
  // A fresh key per renew button and page view: a double click or a reload renews once.
  const renewKeys = Object.fromEntries(services.map((s) => [s.id, crypto.randomUUID()]));
  return {
    meta: { title: t("dashboard.title") },
    name: user.name,
    services,
    orders,
    renewKeys,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await parseForm(request, renewSchema);
  if (!form.ok) return data({ message: "services.errors.notFound" }, { status: 400 });
  const result = await renewService(context.services.db, {
    userId: user.id,
    serviceId: form.data.serviceId,
    idempotencyKey: form.data.idempotencyKey,
  });
  if (!result.ok) {
    return data(
      {
        message: result.error,
        missingCents: "missingCents" in result ? result.missingCents : undefined,
      },
      { status: result.error === "services.errors.notFound" ? 404 : 400 },
    );
  }
  throw redirect("/dashboard", {
    headers: { "Set-Cookie": flashToast({ key: "toast.serviceRenewed", type: "success" }) },
  });
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <main className="mx-auto grid max-w-5xl gap-6 px-4 py-10">
      <h1 className="text-3xl font-bold">{t("dashboard.welcome", { name: loaderData.name })}</h1>
      <ServicesPanel
        services={loaderData.services}
        orders={loaderData.orders}
        renewKeys={loaderData.renewKeys}
        locale={loaderData.locale}
        error={actionData}
      />
    </main>
  );
}
