import { data } from "react-router";
import { NotFoundContent } from "~/components/layout/not-found";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/not-found";
import { requestContext } from "~/context.server";

export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "common");
  return data({ meta: { title: t("notFound.title") } }, { status: 404 });
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function NotFound() {
  return <NotFoundContent />;
}
