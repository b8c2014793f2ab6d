import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import type { KbLink, KbLocale } from "~/domain/knowledgebase/knowledgebase";
import { useTranslation } from "~/i18n/use-translation";
import { ArticleBody } from "./article-body";

// The public knowledge base (docs/knowledgebase.md): drawn on the server without React for a visitor
// (ADR 13), so the search is a plain GET form and every link a plain link.

/** Where a text in another language than the page's says which, and its direction. */
function langOf(textLocale: KbLocale, pageLocale: string) {
  return textLocale === pageLocale
    ? {}
    : { lang: textLocale, dir: textLocale === "ar" ? ("rtl" as const) : ("ltr" as const) };
}

export interface KbCategoryView {
  slug: string;
  name: string;
  nameLocale: KbLocale;
  articles: KbLink[];
}

export interface KbSearchView {
  query: string;
  results: (KbLink & { excerpt: string })[];
}

/** The search box: a GET form to /knowledgebase, which answers without scripts. */
function SearchForm({ query }: { query: string }) {
  const { t } = useTranslation("knowledgebase");
  return (
    <form method="get" action="/knowledgebase" role="search" className="flex flex-wrap gap-2">
      <label htmlFor="kb-search" className="sr-only">
        {t("public.searchLabel")}
      </label>
      <Input
        id="kb-search"
        type="search"
        name="q"
        defaultValue={query}
        maxLength={100}
        placeholder={t("public.searchLabel")}
        className="min-w-0 flex-1 basis-48"
        dir="auto"
      />
      <Button type="submit">{t("public.searchButton")}</Button>
    </form>
  );
}

function ArticleLinks({ articles, locale }: { articles: KbLink[]; locale: string }) {
  return (
    <ul className="grid gap-2">
      {articles.map((article) => (
        <li key={article.href}>
          <Link
            to={article.href}
            className="text-primary underline-offset-4 hover:underline"
            {...langOf(article.locale, locale)}
          >
            {article.title}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function TicketHint() {
  const { t } = useTranslation("knowledgebase");
  return (
    <p className="text-sm text-muted-foreground">
      {t("public.notAnswered")}{" "}
      <Link to="/support/new" className="text-primary underline underline-offset-4">
        {t("public.openTicket")}
      </Link>
    </p>
  );
}

/** /knowledgebase: the search box, then the results of a search or every category with its articles. */
export function KbIndexPage({
  categories,
  search,
  locale,
}: {
  categories: KbCategoryView[];
  search: KbSearchView | null;
  locale: string;
}) {
  const { t } = useTranslation("knowledgebase");
  return (
    <main className="mx-auto grid max-w-3xl gap-8 px-4 py-12">
      <header className="grid gap-3">
        <h1 className="text-4xl font-extrabold">{t("public.title")}</h1>
        <p className="text-muted-foreground">{t("public.intro")}</p>
        <SearchForm query={search?.query ?? ""} />
      </header>
      {search ? (
        <section className="grid gap-4" aria-labelledby="kb-results" data-testid="kb-results">
          <h2 id="kb-results" className="text-xl font-bold wrap-anywhere">
            {search.results.length > 0
              ? t("public.results", { count: search.results.length, query: search.query })
              : t("public.noResults", { query: search.query })}
          </h2>
          <ul className="grid gap-4">
            {search.results.map((result) => (
              <li key={result.href} className="grid gap-1 rounded-lg border p-4">
                <Link
                  to={result.href}
                  className="font-semibold text-primary underline-offset-4 hover:underline"
                  {...langOf(result.locale, locale)}
                >
                  {result.title}
                </Link>
                <span className="text-xs text-muted-foreground">{result.categoryName}</span>
                <p className="text-sm text-muted-foreground wrap-anywhere" dir="auto">
                  {result.excerpt}
                </p>
              </li>
            ))}
          </ul>
          <Link to="/knowledgebase" className="text-sm text-primary underline underline-offset-4">
            {t("public.allCategories")}
          </Link>
        </section>
      ) : categories.length === 0 ? (
        <p className="rounded-md bg-muted p-4">{t("public.empty")}</p>
      ) : (
        <div className="grid gap-6 sm:grid-cols-2">
          {categories.map((category) => (
            <section
              key={category.slug}
              className="grid content-start gap-3 rounded-xl border p-5"
              aria-labelledby={`kb-category-${category.slug}`}
            >
              <h2 id={`kb-category-${category.slug}`} className="text-xl font-bold">
                <Link
                  to={`/knowledgebase/${category.slug}`}
                  className="hover:underline"
                  {...langOf(category.nameLocale, locale)}
                >
                  {category.name}
                </Link>
              </h2>
              <ArticleLinks articles={category.articles} locale={locale} />
            </section>
          ))}
        </div>
      )}
      <TicketHint />
    </main>
  );
}

function Breadcrumb({ category }: { category?: { slug: string; name: string } }) {
  const { t } = useTranslation("knowledgebase");
  return (
    <nav aria-label={t("public.breadcrumb")} className="text-sm">
      <ol className="flex flex-wrap gap-2">
        <li>
          <Link to="/knowledgebase" className="text-primary underline-offset-4 hover:underline">
            {t("public.allCategories")}
          </Link>
        </li>
        {category ? (
          <li className="before:me-2 before:content-['/']">
            <Link
              to={`/knowledgebase/${category.slug}`}
              className="text-primary underline-offset-4 hover:underline"
            >
              {category.name}
            </Link>
          </li>
        ) : null}
      </ol>
    </nav>
  );
}

/** /knowledgebase/<category>: its articles. */
export function KbCategoryPage({ category, locale }: { category: KbCategoryView; locale: string }) {
  const { t } = useTranslation("knowledgebase");
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 py-12">
      <Breadcrumb />
      <h1 className="text-3xl font-extrabold" {...langOf(category.nameLocale, locale)}>
        {category.name}
      </h1>
      <p className="text-sm text-muted-foreground">
        {t("public.articles", { count: category.articles.length })}
      </p>
      <ArticleLinks articles={category.articles} locale={locale} />
      <SearchForm query="" />
      <TicketHint />
    </main>
  );
}

export interface KbArticleView {
  reading: { title: string; titleLocale: KbLocale; body: string; bodyLocale: KbLocale };
  category: { slug: string; name: string; nameLocale: KbLocale };
  siblings: KbLink[];
}

/**
 * /knowledgebase/<category>/<article>: the article in the reader's language; a title or a body not
 * written in it comes in English, marked as such (lang, dir) and said once above the text.
 */
export function KbArticlePage({ article, locale }: { article: KbArticleView; locale: string }) {
  const { t } = useTranslation("knowledgebase");
  const { reading } = article;
  const fallback = reading.bodyLocale !== locale;
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 py-12">
      <Breadcrumb category={article.category} />
      <article className="grid gap-6">
        <h1
          className="text-3xl font-extrabold wrap-anywhere"
          {...langOf(reading.titleLocale, locale)}
        >
          {reading.title}
        </h1>
        {fallback ? (
          <p className="rounded-md bg-muted p-3 text-sm" data-testid="kb-in-english">
            {t("public.inEnglish")}
          </p>
        ) : null}
        <div {...langOf(reading.bodyLocale, locale)}>
          <ArticleBody body={reading.body} codeLabel={t("public.code")} />
        </div>
      </article>
      {article.siblings.length > 0 ? (
        <section className="grid gap-3 border-t pt-6" aria-labelledby="kb-read-next">
          <h2 id="kb-read-next" className="text-lg font-bold">
            {t("public.readNext")}
          </h2>
          <ArticleLinks articles={article.siblings} locale={locale} />
        </section>
      ) : null}
      <TicketHint />
    </main>
  );
}
