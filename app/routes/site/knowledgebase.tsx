import { requestContext } from "~/context.server";
import { kbLocaleOf } from "~/domain/knowledgebase/knowledgebase";
import { kbSearchQuerySchema } from "~/domain/knowledgebase/knowledgebase.schemas";
import {
  knowledgeBaseIndex,
  searchKnowledgeBase,
} from "~/domain/knowledgebase/knowledgebase.server";
import { KbIndexPage } from "~/features/knowledgebase/knowledgebase-pages";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/knowledgebase";

// /knowledgebase (docs/knowledgebase.md): the categories and their published articles, or with ?q= the
// articles a search finds (a GET form: it works without scripts, and the visitor page cache keys it
// by its address).
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "knowledgebase");
  const locale = kbLocaleOf(context.locale);
  const { q } = kbSearchQuerySchema.parse(Object.fromEntries(url.searchParams));
  const db = context.services.db;
  return {
    meta: { title: t("public.title"), description: t("public.metaDescription") },
    categories: q ? [] : await knowledgeBaseIndex(db, locale),
    search: q ? { query: q, results: await searchKnowledgeBase(db, q, locale) } : null,
    locale: context.locale,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function KnowledgeBase({ loaderData }: Route.ComponentProps) {
  return <KbIndexPage {...loaderData} />;
}
