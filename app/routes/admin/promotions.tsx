import { requestContext } from "~/context.server";
import { PromotionsPage } from "~/features/admin-catalogue/promotions-page";
import { listEditorAction, listEditorLoader } from "~/http/list-editor.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/promotions";

// /admin/promotions: vouchers (spec section 3), which the order form applies. Its query, data, posts and
// domain calls are the "promotions" list of app/http/list-editor.server.ts.
export const loader = ({ url, context }: Route.LoaderArgs) =>
  listEditorLoader(url, requestContext(context), "promotions");

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = ({ request, url, context }: Route.ActionArgs) =>
  listEditorAction(request, url, requestContext(context), "promotions");

export default function AdminPromotions({ loaderData, actionData }: Route.ComponentProps) {
  return <PromotionsPage {...loaderData} result={actionData} />;
}
