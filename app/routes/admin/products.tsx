import { data, redirect } from "react-router";
import { productActionSchema, productListQuerySchema } from "~/domain/catalogue/catalogue-admin";
import {
  createProduct,
  deleteProduct,
  loadProductsPage,
  moveProduct,
  setProductStatus,
  updateProduct,
} from "~/domain/catalogue/catalogue-admin.server";
import { ProductsPage, type ProductActionResult } from "~/features/admin-catalogue/products-page";
import { parseForm, typedValues } from "~/http/form.server";
import { requireAdmin } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/products";
import { requestContext } from "~/context.server";

// /admin/products: the catalogue the storefront sells (every product, hidden ones too).
export async function loader({ request, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requireAdmin(request, context);
  const t = context.i18n.getFixedT(null, "admin");
  const query = productListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return {
    meta: { title: t("nav.products") },
    ...(await loadProductsPage(context.services.db, query)),
    query,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const SAVE_INTENTS = ["create", "update"] as const;
const ROW_INTENTS = ["move", "hide", "show", "delete"] as const;

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const admin = requireAdmin(request, context);
  // Kept to show the form again as typed when the save is refused after parsing (a slug taken).
  const copy = request.clone();
  const form = await parseForm(request, productActionSchema);
  if (!form.ok) {
    const save = (SAVE_INTENTS as readonly string[]).includes(form.values.intent ?? "");
    const row = (ROW_INTENTS as readonly string[]).includes(form.values.intent ?? "");
    return data(
      {
        ok: false,
        intent: save ? "save" : "row",
        id: row ? form.values.id : undefined,
        message: save
          ? "admin-catalogue.products.saveFailed"
          : (Object.values(form.fieldErrors)[0] ?? "admin-catalogue.errors.unknownAction"),
        fieldErrors: save ? form.fieldErrors : undefined,
        values: save ? form.values : undefined,
      } satisfies ProductActionResult,
      { status: 400 },
    );
  }
  const db = context.services.db;
  const input = form.data;
  const actorId = admin.id;
  if (input.intent === "create" || input.intent === "update") {
    const result =
      input.intent === "create"
        ? await createProduct(db, { actorId, product: input.product })
        : await updateProduct(db, { actorId, id: input.id, product: input.product });
    if (!result.ok) {
      const values = await typedValues(copy);
      return data(
        {
          ok: false,
          intent: "save",
          message: "admin-catalogue.products.saveFailed",
          reason: result.error,
          fieldErrors: result.error.endsWith("slugTaken") ? { slug: result.error } : undefined,
          values,
        } satisfies ProductActionResult,
        { status: statusOf(result) },
      );
    }
    throw redirect(
      `/admin/products?notice=${input.intent === "create" ? "created" : "updated"}#product-${result.product.id}`,
    );
  }
  const result =
    input.intent === "move"
      ? await moveProduct(db, { actorId, id: input.id, direction: input.direction })
      : input.intent === "delete"
        ? await deleteProduct(db, { actorId, id: input.id })
        : await setProductStatus(db, {
            actorId,
            id: input.id,
            status: input.intent === "hide" ? "hidden" : "active",
          });
  if (!result.ok)
    return data(
      {
        ok: false,
        intent: "row",
        id: String(input.id),
        message: result.error,
      } satisfies ProductActionResult,
      { status: statusOf(result) },
    );
  const messages = {
    move: "admin-catalogue.products.moved",
    hide: "admin-catalogue.products.hidden",
    show: "admin-catalogue.products.shown",
    delete: "admin-catalogue.products.deleted",
  } as const;
  return {
    ok: true,
    intent: "row",
    id: String(input.id),
    message: messages[input.intent],
  } satisfies ProductActionResult;
}

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  return <ProductsPage {...loaderData} result={actionData} />;
}
