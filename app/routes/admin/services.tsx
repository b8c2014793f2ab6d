import { data } from "react-router";
import {
  serviceActionSchema,
  serviceListQuerySchema,
} from "~/domain/hosting-services/hosting-services.schemas";
import {
  adminAddService,
  changeServiceStatus,
  deleteService,
  editServiceByAdmin,
} from "~/domain/hosting-services/admin-changes.server";
import { adminServicesPage } from "~/domain/hosting-services/admin-list.server";
import { ServicesAdmin, type ServiceActionResult } from "~/features/admin-services/services-admin";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/services";
import { requestContext } from "~/context.server";

export const loader = adminLoader(requestContext, {
  title: "services.admin.title",
  permission: "services.view",
  query: serviceListQuerySchema,
  load: ({ db, query }) => adminServicesPage(db, query),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "services.manage",
  serviceActionSchema,
  (form) => {
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
  },
  async ({ db, admin, input }) => {
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
      if (!result.ok)
        return refusal(
          result,
          result.kind === "invalid" ? { fieldErrors: { userId: result.error } } : {},
        );
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
  },
);

export default function AdminServices({ loaderData, actionData }: Route.ComponentProps) {
  return <ServicesAdmin {...loaderData} result={actionData} />;
}
