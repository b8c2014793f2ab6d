import { requestContext } from "~/context.server";
import { ProductsPage } from "~/features/admin-catalogue/products-page";
import { listEditorAction, listEditorLoader } from "~/http/list-editor.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/products";

// /admin/products: the catalogue the storefront sells (every product, hidden ones too). Its query, data,
// posts and domain calls are the "products" list of app/http/list-editor.server.ts.
export const loader = listEditorLoader(requestContext, "products");

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = listEditorAction(requestContext, "products");

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  return <ProductsPage {...loaderData} result={actionData} />;
}
