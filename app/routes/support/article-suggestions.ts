import { requestContext } from "~/context.server";
import { kbLocaleOf } from "~/domain/knowledgebase/knowledgebase";
import { kbSuggestQuerySchema } from "~/domain/knowledgebase/knowledgebase.schemas";
import { suggestKbArticles } from "~/domain/knowledgebase/knowledgebase.server";
import { requireUser } from "~/http/guards.server";
import type { Route } from "./+types/article-suggestions";

// GET /support/new/articles?department=…&subject=… (docs/knowledgebase.md): the published articles
// the new-ticket page suggests while the customer types its subject, as JSON, in their language.
// Signed-in customers only, as the page is; never kept by a browser or a proxy.
const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requireUser(url, context);
  const query = kbSuggestQuerySchema.parse(Object.fromEntries(url.searchParams));
  const articles = await suggestKbArticles(context.services.db, {
    subject: query.subject,
    department: query.department,
    locale: kbLocaleOf(context.locale),
  });
  return Response.json({ articles }, { headers: NO_STORE });
}
