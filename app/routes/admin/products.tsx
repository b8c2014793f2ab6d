import { productActionSchema, productListQuerySchema } from "~/domain/catalogue/catalogue-admin";
import {
  createProduct,
  deleteProduct,
  loadProductsPage,
  moveProduct,
  setProductStatus,
  updateProduct,
} from "~/domain/catalogue/catalogue-admin.server";
import { ProductsPage } from "~/features/admin-catalogue/products-page";
import { requireAdmin } from "~/http/guards.server";
import { listEditorAction, listEditorLoader } from "~/http/list-editor.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/products";
import { requestContext } from "~/context.server";

// /admin/products: the catalogue the storefront sells (every product, hidden ones too).
export async function loader({ url, context }: Route.LoaderArgs) {
  return listEditorLoader(url, requestContext(context), {
    querySchema: productListQuerySchema,
    title: "nav.products",
    load: loadProductsPage,
  });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const ROW_MESSAGES = {
  move: "admin-catalogue.products.moved",
  hide: "admin-catalogue.products.hidden",
  show: "admin-catalogue.products.shown",
  delete: "admin-catalogue.products.deleted",
} as const;

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const actorId = requireAdmin(url, context).id;
  const db = context.services.db;
  return listEditorAction(request, productActionSchema, {
    listPath: "/admin/products",
    anchor: "product",
    saveFailed: "admin-catalogue.products.saveFailed",
    rowIntents: Object.keys(ROW_MESSAGES),
    save: async (input) => {
      const result =
        input.intent === "create"
          ? await createProduct(db, { actorId, product: input.product })
          : await updateProduct(db, { actorId, id: input.id, product: input.product });
      return result.ok ? { ok: true, id: result.product.id } : result;
    },
    fieldOf: (error) => (error.endsWith("slugTaken") ? "slug" : undefined),
    row: async (input) => {
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
      return result.ok ? { ok: true, message: ROW_MESSAGES[input.intent] } : result;
    },
  });
}

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  return <ProductsPage {...loaderData} result={actionData} />;
}
