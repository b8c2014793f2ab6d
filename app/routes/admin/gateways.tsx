import { requestContext } from "~/context.server";
import { GatewaysPage } from "~/features/admin-payments/gateways-page";
import { listEditorAction, listEditorLoader } from "~/http/list-editor.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/gateways";

// /admin/gateways: the payment methods customers buy coins with (docs/payments.md). Its query, data,
// posts and domain calls are the "gateways" list of app/http/list-editor.server.ts.
export const loader = listEditorLoader(requestContext, "gateways");

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = listEditorAction(requestContext, "gateways");

export default function AdminGateways({ loaderData, actionData }: Route.ComponentProps) {
  return <GatewaysPage {...loaderData} result={actionData} />;
}
