import { requestContext } from "~/context.server";
import { PromotionsPage } from "~/features/admin-catalogue/promotions-page";
import { listEditorAction, listEditorLoader } from "~/http/list-editor.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/promotions";

// /admin/promotions: vouchers (spec section 3), which the order form applies. Its query, data, posts and
// domain calls are the "promotions" list of app/http/list-editor.server.ts.
export const loader = listEditorLoader(requestContext, "promotions");

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = listEditorAction(requestContext, "promotions");

export default function AdminPromotions({ loaderData, actionData }: Route.ComponentProps) {
  return <PromotionsPage {...loaderData} result={actionData} />;
}
