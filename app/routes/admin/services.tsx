import { data } from "react-router";
import {
  serviceActionSchema,
  serviceListQuerySchema,
} from "~/domain/hosting-services/hosting-services.schemas";
import {
  adminAddService,
  adminServicesPage,
  changeServiceStatus,
  deleteService,
  editServiceByAdmin,
} from "~/domain/hosting-services/hosting-services.server";
import { ServicesAdmin, type ServiceActionResult } from "~/features/admin-services/services-admin";
import { adminForm, adminPage, queryOf, refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/services";
import { requestContext } from "~/context.server";

export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "services");
  const query = queryOf(url, serviceListQuerySchema);
  const page = await adminServicesPage(context.services.db, query);
  return {
    meta: { title: t("admin.title") },
    ...page,
    query,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, serviceActionSchema);
  if (!form.ok) {
    if (form.values.intent === "edit") {
      return data(
        {
          ok: false,
          intent: "edit",
          message: "services.errors.editRefused",
          fieldErrors: form.fieldErrors,
          values: form.values,
        } satisfies ServiceActionResult,
        { status: 400 },
      );
    }
    const required = form.fieldErrors.userId || form.fieldErrors.name;
    return data(
      {
        ok: false,
        message: required
          ? "services.errors.required"
          : (Object.values(form.fieldErrors)[0] ?? "services.errors.notFound"),
        fieldErrors: form.fieldErrors,
      } satisfies ServiceActionResult,
      { status: 400 },
    );
  }
  const db = context.services.db;
  const input = form.data;
  if (input.intent === "add") {
    const result = await adminAddService(db, {
      actorId: admin.id,
      userId: input.userId,
      name: input.name,
      priceCents: input.price,
      productId: input.productId,
      serverName: input.serverName,
      billingCycle: input.billingCycle,
    });
    if (!result.ok) return refusal(result, { fieldErrors: { userId: result.error } });
    return { ok: true, message: "services.admin.added" } satisfies ServiceActionResult;
  }
  if (input.intent === "edit") {
    const result = await editServiceByAdmin(db, { ...input, actorId: admin.id });
    if (!result.ok) return refusal(result, { intent: "edit" as const });
    return {
      ok: true,
      intent: "edit",
      message: result.changed ? "services.admin.updated" : "services.admin.unchanged",
    } satisfies ServiceActionResult;
  }
  if (input.intent === "delete") {
    const result = await deleteService(db, { actorId: admin.id, serviceId: input.serviceId });
    if (!result.ok) return refusal(result);
    return { ok: true, message: "services.admin.deleted" } satisfies ServiceActionResult;
  }
  const result = await changeServiceStatus(db, {
    actorId: admin.id,
    serviceId: input.serviceId,
    action: input.intent,
  });
  if (!result.ok) return refusal(result);
  return {
    ok: true,
    message: "services.admin.changed",
    params: { status: result.service.status },
  } satisfies ServiceActionResult;
}

export default function AdminServices({ loaderData, actionData }: Route.ComponentProps) {
  return <ServicesAdmin {...loaderData} result={actionData} />;
}
