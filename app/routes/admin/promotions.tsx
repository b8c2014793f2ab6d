import { voucherActionSchema, voucherListQuerySchema } from "~/domain/promotions/promotions";
import {
  createVoucher,
  loadPromotionsPage,
  setVoucherActive,
  updateVoucher,
} from "~/domain/promotions/promotions.server";
import { PromotionsPage } from "~/features/admin-catalogue/promotions-page";
import { requireAdmin } from "~/http/guards.server";
import { listEditorAction, listEditorLoader } from "~/http/list-editor.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/promotions";
import { requestContext } from "~/context.server";

// /admin/promotions: vouchers (spec section 3), which the order form applies.
export async function loader({ url, context }: Route.LoaderArgs) {
  return listEditorLoader(url, requestContext(context), {
    querySchema: voucherListQuerySchema,
    title: "nav.promotions",
    load: loadPromotionsPage,
  });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

/** The form field each refused save names. */
const ERROR_FIELDS: Record<string, string | undefined> = {
  "admin-catalogue.promotions.errors.codeTaken": "code",
  "admin-catalogue.promotions.errors.productsUnknown": "products",
  "admin-catalogue.promotions.errors.maxUsesBelowUsed": "maxUses",
};

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const actorId = requireAdmin(url, context).id;
  const db = context.services.db;
  return listEditorAction(request, voucherActionSchema, {
    listPath: "/admin/promotions",
    anchor: "voucher",
    saveFailed: "admin-catalogue.promotions.saveFailed",
    save: async (input) => {
      const result =
        input.intent === "create"
          ? await createVoucher(db, { actorId, voucher: input.voucher })
          : await updateVoucher(db, { actorId, id: input.id, voucher: input.voucher });
      return result.ok ? { ok: true, id: result.voucher.id } : result;
    },
    fieldOf: (error) => ERROR_FIELDS[error],
    row: async (input) => {
      const result = await setVoucherActive(db, {
        actorId,
        id: input.id,
        active: input.intent === "activate",
      });
      return result.ok
        ? {
            ok: true,
            message:
              input.intent === "activate"
                ? "admin-catalogue.promotions.activated"
                : "admin-catalogue.promotions.deactivated",
          }
        : result;
    },
  });
}

export default function AdminPromotions({ loaderData, actionData }: Route.ComponentProps) {
  return <PromotionsPage {...loaderData} result={actionData} />;
}
