import { data, redirect } from "react-router";
import { requestContext } from "~/context.server";
import { kbLocaleOf } from "~/domain/knowledgebase/knowledgebase";
import { knowledgeBaseArticle } from "~/domain/knowledgebase/knowledgebase.server";
import { KbArticlePage } from "~/features/knowledgebase/knowledgebase-pages";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/knowledgebase-article";

// /knowledgebase/<category>/<article> (docs/knowledgebase.md): a published article in the reader's
// language, English where theirs is not written. A draft, or no such article, is 404; an article
// reached under another category's slug (it was moved) is sent to its own address.
export async function loader({ params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "knowledgebase");
  const found = await knowledgeBaseArticle(
    context.services.db,
    params.article,
    kbLocaleOf(context.locale),
  );
  if (!found) throw data(null, { status: 404 });
  if (found.category.slug !== params.category) throw redirect(found.path, 301);
  const { path: _path, description, ...article } = found;
  return {
    meta: { title: `${article.reading.title} · ${t("public.title")}`, description },
    article,
    locale: context.locale,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function KnowledgeBaseArticle({ loaderData }: Route.ComponentProps) {
  return <KbArticlePage {...loaderData} />;
}
