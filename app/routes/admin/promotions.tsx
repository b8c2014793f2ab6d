import { data, redirect } from "react-router";
import { voucherActionSchema, voucherListQuerySchema } from "~/domain/promotions/promotions";
import {
  createVoucher,
  loadPromotionsPage,
  setVoucherActive,
  updateVoucher,
} from "~/domain/promotions/promotions.server";
import {
  PromotionsPage,
  type VoucherActionResult,
} from "~/features/admin-catalogue/promotions-page";
import { parseForm, typedValues } from "~/http/form.server";
import { requireAdmin } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/promotions";
import { requestContext } from "~/context.server";

// /admin/promotions: vouchers (spec section 3), which the order form applies.
export async function loader({ request, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requireAdmin(request, context);
  const t = context.i18n.getFixedT(null, "admin");
  const query = voucherListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return {
    meta: { title: t("nav.promotions") },
    ...(await loadPromotionsPage(context.services.db, query)),
    query,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const SAVE_INTENTS = ["create", "update"] as const;

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const admin = requireAdmin(request, context);
  // Kept to show the form again as typed when the save is refused after parsing (a code taken).
  const copy = request.clone();
  const form = await parseForm(request, voucherActionSchema);
  if (!form.ok) {
    const save = (SAVE_INTENTS as readonly string[]).includes(form.values.intent ?? "");
    return data(
      {
        ok: false,
        intent: save ? "save" : "row",
        id: save ? undefined : form.values.id,
        message: save
          ? "admin-catalogue.promotions.saveFailed"
          : (Object.values(form.fieldErrors)[0] ?? "admin-catalogue.errors.unknownAction"),
        fieldErrors: save ? form.fieldErrors : undefined,
        values: save ? form.values : undefined,
      } satisfies VoucherActionResult,
      { status: 400 },
    );
  }
  const db = context.services.db;
  const input = form.data;
  const actorId = admin.id;
  if (input.intent === "create" || input.intent === "update") {
    const result =
      input.intent === "create"
        ? await createVoucher(db, { actorId, voucher: input.voucher })
        : await updateVoucher(db, { actorId, id: input.id, voucher: input.voucher });
    if (!result.ok) {
      const field = {
        "admin-catalogue.promotions.errors.codeTaken": "code",
        "admin-catalogue.promotions.errors.productsUnknown": "products",
        "admin-catalogue.promotions.errors.maxUsesBelowUsed": "maxUses",
        "admin-catalogue.promotions.errors.notFound": undefined,
      }[result.error];
      return data(
        {
          ok: false,
          intent: "save",
          message: "admin-catalogue.promotions.saveFailed",
          reason: result.error,
          fieldErrors: field ? { [field]: result.error } : undefined,
          values: await typedValues(copy),
        } satisfies VoucherActionResult,
        { status: statusOf(result) },
      );
    }
    throw redirect(
      `/admin/promotions?notice=${input.intent === "create" ? "created" : "updated"}#voucher-${result.voucher.id}`,
    );
  }
  const result = await setVoucherActive(db, {
    actorId,
    id: input.id,
    active: input.intent === "activate",
  });
  if (!result.ok)
    return data(
      {
        ok: false,
        intent: "row",
        id: String(input.id),
        message: result.error,
      } satisfies VoucherActionResult,
      { status: statusOf(result) },
    );
  return {
    ok: true,
    intent: "row",
    id: String(input.id),
    message:
      input.intent === "activate"
        ? "admin-catalogue.promotions.activated"
        : "admin-catalogue.promotions.deactivated",
  } satisfies VoucherActionResult;
}

export default function AdminPromotions({ loaderData, actionData }: Route.ComponentProps) {
  return <PromotionsPage {...loaderData} result={actionData} />;
}
