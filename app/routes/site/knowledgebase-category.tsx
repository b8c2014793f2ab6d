import { data } from "react-router";
import { requestContext } from "~/context.server";
import { kbLocaleOf } from "~/domain/knowledgebase/knowledgebase";
import { knowledgeBaseCategory } from "~/domain/knowledgebase/knowledgebase.server";
import { KbCategoryPage } from "~/features/knowledgebase/knowledgebase-pages";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/knowledgebase-category";

// /knowledgebase/<category> (docs/knowledgebase.md): one category's published articles; 404 for a
// category that does not exist or has nothing published.
export async function loader({ params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "knowledgebase");
  const category = await knowledgeBaseCategory(
    context.services.db,
    params.category,
    kbLocaleOf(context.locale),
  );
  if (!category) throw data(null, { status: 404 });
  return {
    meta: { title: `${category.name} · ${t("public.title")}`, description: t("public.intro") },
    category,
    locale: context.locale,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function KnowledgeBaseCategory({ loaderData }: Route.ComponentProps) {
  return <KbCategoryPage {...loaderData} />;
}
