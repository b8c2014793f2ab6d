import { byId, DataTable, type Column } from "~/components/data-table/data-table";
import { actionsColumn, column } from "~/components/data-table/column-presets";
import { Badge } from "~/components/ui/badge";
import { Link } from "~/components/ui/link";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultMessage } from "~/components/ui/result-message";
import {
  kbArticlePath,
  KB_LOCALE_LABELS,
  KB_LOCALES,
  KB_STATUS_LABELS,
  type KbTexts,
} from "~/domain/knowledgebase/knowledgebase";
import { DEPARTMENT_LABELS } from "~/domain/tickets/tickets";
import { useTranslation } from "~/i18n/use-translation";
import { ArticleEditorDialog, CategoryEditorDialog, DeleteDialog } from "./kb-admin-dialogs";
import type { KbActionResult, KbArticle, KbCategory } from "./kb-admin-shared";

/** The languages a text is written in, as badges. */
function Languages({ texts }: { texts: KbTexts }) {
  const { t } = useTranslation("knowledgebase");
  return (
    <span className="flex flex-wrap gap-1">
      {KB_LOCALES.filter((locale) => texts[locale].trim() !== "").map((locale) => (
        <Badge key={locale}>{t(KB_LOCALE_LABELS[locale])}</Badge>
      ))}
    </span>
  );
}

function useCategoryColumns(result?: KbActionResult): Column<KbCategory>[] {
  const { t } = useTranslation("knowledgebase");
  const { t: tCommon } = useTranslation("common");
  return [
    actionsColumn(
      t("admin.columns.actions"),
      (category) => (
        <div className="flex flex-wrap items-center gap-2">
          <CategoryEditorDialog category={category} result={result} />
          <DeleteDialog intent="category-delete" id={category.id} name={category.names.en} />
        </div>
      ),
      { wide: true },
    ),
    column(
      "name",
      t("admin.columns.name"),
      (category) => (
        <>
          <p className="font-semibold" dir="auto">
            {category.names.en}
          </p>
          <p className="text-xs text-muted-foreground" dir="ltr">
            /knowledgebase/{category.slug}
          </p>
        </>
      ),
      { wide: true },
    ),
    column("department", t("admin.columns.department"), (category) =>
      category.department ? (
        <span>{tCommon(DEPARTMENT_LABELS[category.department])}</span>
      ) : (
        <span className="text-muted-foreground">{t("admin.anyDepartment")}</span>
      ),
    ),
    column("languages", t("admin.columns.languages"), (category) => (
      <Languages texts={category.names} />
    )),
    column("position", t("admin.columns.position"), (category) => category.position),
  ];
}

function useArticleColumns(categories: KbCategory[], result?: KbActionResult): Column<KbArticle>[] {
  const { t } = useTranslation("knowledgebase");
  const categoryOf = (article: KbArticle) =>
    categories.find((category) => category.id === article.categoryId);
  return [
    actionsColumn(
      t("admin.columns.actions"),
      (article) => (
        <div className="flex flex-wrap items-center gap-2">
          <ArticleEditorDialog article={article} categories={categories} result={result} />
          <DeleteDialog intent="article-delete" id={article.id} name={article.titles.en} />
        </div>
      ),
      { wide: true },
    ),
    column(
      "title",
      t("admin.columns.title"),
      (article) => {
        const category = categoryOf(article);
        return (
          <>
            {article.status === "published" && category ? (
              <Link
                to={kbArticlePath(category.slug, article.slug)}
                className="font-semibold text-primary underline-offset-4 hover:underline"
                dir="auto"
              >
                {article.titles.en}
              </Link>
            ) : (
              <p className="font-semibold" dir="auto">
                {article.titles.en}
              </p>
            )}
            <p className="text-xs text-muted-foreground" dir="ltr">
              {article.slug}
            </p>
          </>
        );
      },
      { wide: true },
    ),
    column("category", t("admin.columns.category"), (article) => (
      <span dir="auto">{categoryOf(article)?.names.en}</span>
    )),
    column("status", t("admin.columns.status"), (article) => (
      <Badge tone={article.status === "published" ? "green" : "grey"}>
        {t(KB_STATUS_LABELS[article.status])}
      </Badge>
    )),
    column("languages", t("admin.columns.languages"), (article) => (
      <Languages texts={article.bodies} />
    )),
    column("position", t("admin.columns.position"), (article) => article.position),
  ];
}

/**
 * /admin/knowledgebase (docs/knowledgebase.md): the categories, then the articles (drafts too), each
 * edited in a dialog and deleted after a confirmation. On a phone each row is a card, its buttons first.
 */
export function KbAdminPage({
  categories,
  articles,
  result,
}: {
  categories: KbCategory[];
  articles: KbArticle[];
  result?: KbActionResult;
}) {
  const { t } = useTranslation("admin");
  const { t: tKb } = useTranslation("knowledgebase");
  const categoryColumns = useCategoryColumns(result);
  const articleColumns = useArticleColumns(categories, result);
  // A refused save is said in its dialog; anything else here, above the lists.
  const saving = result?.intent !== undefined && !result.intent.endsWith("-delete");
  const said = result && (result.ok || !saving) ? result : undefined;
  return (
    <main className="grid min-w-0 gap-6">
      <PageHeading title={t("nav.knowledgebase")} intro={tKb("admin.intro")}>
        <Link to="/knowledgebase" className="text-sm text-primary underline underline-offset-4">
          {tKb("admin.viewPublic")}
        </Link>
      </PageHeading>
      {said ? <ResultMessage result={said} values={{ name: said.name ?? "" }} /> : null}
      <section className="grid gap-3" aria-labelledby="kb-categories">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="kb-categories" className="text-xl font-bold">
            {tKb("admin.categories")}
          </h2>
          <CategoryEditorDialog result={result} />
        </div>
        {categories.length === 0 ? (
          <p className="text-muted-foreground">{tKb("admin.categoriesEmpty")}</p>
        ) : (
          <DataTable
            caption={tKb("admin.categories")}
            columns={categoryColumns}
            rows={categories}
            rowKey={byId}
          />
        )}
      </section>
      <section className="grid gap-3" aria-labelledby="kb-articles">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="kb-articles" className="text-xl font-bold">
            {tKb("admin.articles")}
          </h2>
          <ArticleEditorDialog categories={categories} result={result} />
        </div>
        {articles.length === 0 ? (
          <p className="text-muted-foreground">{tKb("admin.articlesEmpty")}</p>
        ) : (
          <DataTable
            caption={tKb("admin.articles")}
            columns={articleColumns}
            rows={articles}
            rowKey={byId}
          />
        )}
      </section>
    </main>
  );
}
