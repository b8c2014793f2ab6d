import { sql } from "kysely";
import { containsPattern } from "~/db/like-pattern";
import { inTransaction, orWhenTaken, Refusal, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import type { Department } from "~/domain/tickets/tickets";
import type { FailureKind } from "~/lib/result";
import { plainExcerpt } from "./article-markup";
import {
  KB_LOCALES,
  KB_SEARCH_LIMIT,
  KB_SUGGESTION_LIMIT,
  kbArticlePath,
  kbArticleProblem,
  kbCategoryProblem,
  kbReadingIn,
  kbTextIn,
  searchColumns,
  searchWords,
  subjectWords,
  type KbArticle,
  type KbArticleInput,
  type KbCategory,
  type KbCategoryInput,
  type KbLink,
  type KbLocale,
  type KbProblem,
  type KbReading,
  type KbStatus,
  type KbTexts,
} from "./knowledgebase";
import type { KbAction } from "./knowledgebase.schemas";
import { KB_ARTICLE_SEEDS, KB_CATEGORY_SEEDS } from "./knowledgebase-seeds";

// The knowledge base (docs/knowledgebase.md): what visitors read at /knowledgebase (published articles
// only), what the new-ticket page suggests, and the staff's changes on /admin/knowledgebase, each made
// by a member whose role holds `knowledgebase.manage` (checked again here, whatever route called) and
// recorded as kbCategory.* / kbArticle.* events (the audit log).

export type KbRefusal =
  | KbProblem
  | "knowledgebase.errors.categoryNotFound"
  | "knowledgebase.errors.articleNotFound"
  | "knowledgebase.errors.slugTaken"
  | "knowledgebase.errors.categoryNotEmpty";

type Refused = { ok: false; kind: FailureKind; error: KbRefusal; field?: string } | StaffForbidden;

export type KbCategoryResult = { ok: true; category: KbCategory } | Refused;
export type KbArticleResult = { ok: true; article: KbArticle } | Refused;

const EMPTY: KbTexts = { en: "", fr: "", ar: "" };

/** A JSON object of texts per language as stored; anything else in it is dropped, a missing one is "". */
function textsOf(json: string): KbTexts {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = null;
  }
  const stored = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const texts = { ...EMPTY };
  for (const locale of KB_LOCALES) {
    const text = stored[locale];
    if (typeof text === "string") texts[locale] = text;
  }
  return texts;
}

function categories(db: Db | Tx) {
  return db
    .selectFrom("kb_categories")
    .select(["id", "slug", "names", "department", "position"])
    .orderBy("position")
    .orderBy("id");
}

type CategoryRow = Awaited<ReturnType<ReturnType<typeof categories>["executeTakeFirstOrThrow"]>>;

function toCategory(row: CategoryRow): KbCategory {
  return {
    id: Number(row.id),
    slug: row.slug,
    names: textsOf(row.names),
    // A CHECK keeps it one of the departments, or null.
    department: row.department as Department | null,
    position: row.position,
  };
}

function articles(db: Db | Tx) {
  return db
    .selectFrom("kb_articles")
    .leftJoin("users", "users.id", "kb_articles.created_by")
    .select([
      "kb_articles.id",
      "kb_articles.category_id",
      "kb_articles.slug",
      "kb_articles.status",
      "kb_articles.position",
      "kb_articles.titles",
      "kb_articles.bodies",
      "kb_articles.created_at",
      "kb_articles.updated_at",
      "users.name as author_name",
    ]);
}

type ArticleRow = Awaited<ReturnType<ReturnType<typeof articles>["executeTakeFirstOrThrow"]>>;

function toArticle(row: ArticleRow): KbArticle {
  return {
    id: Number(row.id),
    categoryId: Number(row.category_id),
    slug: row.slug,
    // A CHECK keeps it draft or published.
    status: row.status as KbStatus,
    position: row.position,
    titles: textsOf(row.titles),
    bodies: textsOf(row.bodies),
    authorName: row.author_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Everything, drafts too, for the staff's page: categories and articles in their order. */
export async function listKnowledgeBase(
  db: Db,
): Promise<{ categories: KbCategory[]; articles: KbArticle[] }> {
  const [categoryRows, articleRows] = await Promise.all([
    categories(db).execute(),
    articles(db)
      .innerJoin("kb_categories", "kb_categories.id", "kb_articles.category_id")
      .orderBy("kb_categories.position")
      .orderBy("kb_categories.id")
      .orderBy("kb_articles.position")
      .orderBy("kb_articles.id")
      .execute(),
  ]);
  return { categories: categoryRows.map(toCategory), articles: articleRows.map(toArticle) };
}

/** A published article's link for one reader: title in their language, else English. */
function linkOf(
  row: { slug: string; titles: string; category_slug: string; category_names: string },
  locale: KbLocale,
): KbLink {
  const title = kbTextIn(textsOf(row.titles), locale);
  return {
    href: kbArticlePath(row.category_slug, row.slug),
    title: title.text,
    locale: title.locale,
    categoryName: kbTextIn(textsOf(row.category_names), locale).text,
  };
}

function published(db: Db) {
  return db
    .selectFrom("kb_articles")
    .innerJoin("kb_categories", "kb_categories.id", "kb_articles.category_id")
    .select([
      "kb_articles.id",
      "kb_articles.slug",
      "kb_articles.titles",
      "kb_articles.bodies",
      "kb_articles.category_id",
      "kb_categories.slug as category_slug",
      "kb_categories.names as category_names",
      "kb_categories.department",
    ])
    .where("kb_articles.status", "=", "published");
}

export interface KbCategorySummary {
  slug: string;
  name: string;
  nameLocale: KbLocale;
  articles: KbLink[];
}

/** The index: every category with a published article, each with its articles, in the staff's order. */
export async function knowledgeBaseIndex(db: Db, locale: KbLocale): Promise<KbCategorySummary[]> {
  const [categoryRows, articleRows] = await Promise.all([
    categories(db).execute(),
    published(db).orderBy("kb_articles.position").orderBy("kb_articles.id").execute(),
  ]);
  return categoryRows
    .map(toCategory)
    .map((category) => {
      const name = kbTextIn(category.names, locale);
      return {
        slug: category.slug,
        name: name.text,
        nameLocale: name.locale,
        articles: articleRows
          .filter((row) => Number(row.category_id) === category.id)
          .map((row) => linkOf(row, locale)),
      };
    })
    .filter((category) => category.articles.length > 0);
}

/** One category's page, or undefined when there is none by that slug (or nothing published in it). */
export async function knowledgeBaseCategory(
  db: Db,
  slug: string,
  locale: KbLocale,
): Promise<KbCategorySummary | undefined> {
  return (await knowledgeBaseIndex(db, locale)).find((category) => category.slug === slug);
}

export interface KbArticlePage {
  reading: KbReading;
  category: { slug: string; name: string; nameLocale: KbLocale };
  /** The article's own address: a link under another category's slug is sent there. */
  path: string;
  description: string;
  /** The other articles of its category, for "read next". */
  siblings: KbLink[];
}

/** A published article by its slug, for one reader; undefined for none, or a draft. */
export async function knowledgeBaseArticle(
  db: Db,
  slug: string,
  locale: KbLocale,
): Promise<KbArticlePage | undefined> {
  const row = await published(db).where("kb_articles.slug", "=", slug).executeTakeFirst();
  if (!row) return undefined;
  const reading = kbReadingIn({ titles: textsOf(row.titles), bodies: textsOf(row.bodies) }, locale);
  const name = kbTextIn(textsOf(row.category_names), locale);
  const siblings = await published(db)
    .where("kb_articles.category_id", "=", row.category_id)
    .where("kb_articles.id", "!=", row.id)
    .orderBy("kb_articles.position")
    .orderBy("kb_articles.id")
    .limit(10)
    .execute();
  return {
    reading,
    category: { slug: row.category_slug, name: name.text, nameLocale: name.locale },
    path: kbArticlePath(row.category_slug, row.slug),
    description: plainExcerpt(reading.body),
    siblings: siblings.map((sibling) => linkOf(sibling, locale)),
  };
}

export interface KbSearchResult extends KbLink {
  excerpt: string;
}

/**
 * Published articles holding every word of `query` in a title or a body of any language (folded alike
 * on both databases: searchFold), those with every word in a title first, then in the staff's order.
 */
export async function searchKnowledgeBase(
  db: Db,
  query: string,
  locale: KbLocale,
): Promise<KbSearchResult[]> {
  const words = searchWords(query);
  if (words.length === 0) return [];
  let search = published(db);
  for (const word of words)
    search = search.where(
      sql<boolean>`kb_articles.search_text like ${containsPattern(word)} escape '\\'`,
    );
  const inTitles = sql.join(
    words.map((word) => sql`kb_articles.search_titles like ${containsPattern(word)} escape '\\'`),
    sql` and `,
  );
  const rows = await search
    .orderBy(sql`case when ${inTitles} then 0 else 1 end`)
    .orderBy("kb_categories.position")
    .orderBy("kb_articles.position")
    .orderBy("kb_articles.id")
    .limit(KB_SEARCH_LIMIT)
    .execute();
  return rows.map((row) => ({
    ...linkOf(row, locale),
    excerpt: plainExcerpt(kbTextIn(textsOf(row.bodies), locale).text),
  }));
}

/**
 * The new-ticket page's suggestions: published articles holding a word of the subject (subjectWords:
 * no stop word, three letters or more), those holding more of them (in a title more than in a body) first, those whose category suits the chosen department before
 * the others; none for a subject without such a word.
 */
export async function suggestKbArticles(
  db: Db,
  input: { subject: string; department?: Department; locale: KbLocale },
): Promise<KbLink[]> {
  const words = subjectWords(input.subject);
  if (words.length === 0) return [];
  const any = sql.join(
    words.map((word) => sql`kb_articles.search_text like ${containsPattern(word)} escape '\\'`),
    sql` or `,
  );
  const rows = await published(db)
    .select(["kb_articles.search_titles", "kb_articles.search_text"])
    .where(sql<boolean>`(${any})`)
    .orderBy("kb_categories.position")
    .orderBy("kb_articles.position")
    .orderBy("kb_articles.id")
    .limit(50)
    .execute();
  const score = (row: (typeof rows)[number]) =>
    words.reduce(
      (sum, word) =>
        sum + (row.search_titles.includes(word) ? 3 : row.search_text.includes(word) ? 1 : 0),
      0,
    ) + (input.department && row.department === input.department ? 2 : 0);
  return rows
    .map((row, index) => ({ row, index, score: score(row) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, KB_SUGGESTION_LIMIT)
    .map(({ row }) => linkOf(row, input.locale));
}

// ---- The staff's changes ----

function refusalOf(problem: { field: string; error: KbProblem } | null): Refused | null {
  return problem
    ? { ok: false, kind: "invalid", error: problem.error, field: problem.field }
    : null;
}

const SLUG_TAKEN = {
  ok: false,
  kind: "conflict",
  error: "knowledgebase.errors.slugTaken",
  field: "slug",
} as const satisfies Refused;

async function categoryOrRefuse(trx: Tx, id: number, field?: string): Promise<KbCategory> {
  const row = await categories(trx).where("id", "=", id).executeTakeFirst();
  if (!row)
    throw new Refusal({
      ok: false,
      kind: field ? "invalid" : "notFound",
      error: "knowledgebase.errors.categoryNotFound",
      ...(field ? { field } : {}),
    } satisfies Refused);
  return toCategory(row);
}

async function articleOrRefuse(trx: Tx, id: number): Promise<KbArticle> {
  const row = await articles(trx).where("kb_articles.id", "=", id).executeTakeFirst();
  if (!row)
    throw new Refusal({
      ok: false,
      kind: "notFound",
      error: "knowledgebase.errors.articleNotFound",
    } satisfies Refused);
  return toArticle(row);
}

async function slugTaken(
  trx: Tx,
  table: "kb_categories" | "kb_articles",
  slug: string,
  exceptId?: number,
): Promise<boolean> {
  let query = trx.selectFrom(table).select("id").where("slug", "=", slug);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return Boolean(await query.executeTakeFirst());
}

function categoryColumns(category: KbCategoryInput) {
  return {
    slug: category.slug,
    names: JSON.stringify(category.names),
    department: category.department,
    position: category.position,
  };
}

function articleColumns(article: KbArticleInput) {
  return {
    category_id: article.categoryId,
    slug: article.slug,
    status: article.status,
    position: article.position,
    titles: JSON.stringify(article.titles),
    bodies: JSON.stringify(article.bodies),
    ...searchColumns(article.titles, article.bodies),
  };
}

/** Writes a category, or changes one; a slug another category has is refused, the same again records nothing. */
export async function saveKbCategory(
  db: Db,
  input: { actorId: string; id?: number; category: KbCategoryInput; now?: Date },
): Promise<KbCategoryResult> {
  const refused = refusalOf(kbCategoryProblem(input.category));
  if (refused) return refused;
  // Two members saving the same slug at once: the second meets the unique index.
  return orWhenTaken(SLUG_TAKEN, () =>
    inTransaction(db, async (trx): Promise<KbCategoryResult> => {
      await requireStaffPermission(trx, input.actorId, "knowledgebase.manage");
      const before = input.id === undefined ? undefined : await categoryOrRefuse(trx, input.id);
      if (await slugTaken(trx, "kb_categories", input.category.slug, before?.id))
        throw new Refusal(SLUG_TAKEN);
      const at = (input.now ?? new Date()).toISOString();
      let id: number;
      if (before) {
        const unchanged =
          JSON.stringify(categoryColumns(before)) ===
          JSON.stringify(categoryColumns(input.category));
        if (unchanged) return { ok: true, category: before };
        await trx
          .updateTable("kb_categories")
          .set({ ...categoryColumns(input.category), updated_at: at })
          .where("id", "=", before.id)
          .execute();
        id = before.id;
      } else {
        const row = await trx
          .insertInto("kb_categories")
          .values({ ...categoryColumns(input.category), created_at: at, updated_at: at })
          .returning("id")
          .executeTakeFirstOrThrow();
        id = Number(row.id);
      }
      const after = await categoryOrRefuse(trx, id);
      await record(trx, { type: "kbCategory.saved", actorId: input.actorId, before, after });
      return { ok: true, category: after };
    }),
  );
}

/** Deletes a category that holds no article (they are moved or deleted first: nothing is lost by a slip). */
export async function deleteKbCategory(
  db: Db,
  input: { actorId: string; id: number },
): Promise<KbCategoryResult> {
  return inTransaction(db, async (trx): Promise<KbCategoryResult> => {
    await requireStaffPermission(trx, input.actorId, "knowledgebase.manage");
    const category = await categoryOrRefuse(trx, input.id);
    const any = await trx
      .selectFrom("kb_articles")
      .select("id")
      .where("category_id", "=", category.id)
      .limit(1)
      .executeTakeFirst();
    if (any) return { ok: false, kind: "conflict", error: "knowledgebase.errors.categoryNotEmpty" };
    await trx.deleteFrom("kb_categories").where("id", "=", category.id).execute();
    await record(trx, { type: "kbCategory.deleted", actorId: input.actorId, category });
    return { ok: true, category };
  });
}

function sameArticle(before: KbArticle, input: KbArticleInput): boolean {
  return (
    before.categoryId === input.categoryId &&
    before.slug === input.slug &&
    before.status === input.status &&
    before.position === input.position &&
    JSON.stringify(before.titles) === JSON.stringify(input.titles) &&
    JSON.stringify(before.bodies) === JSON.stringify(input.bodies)
  );
}

/**
 * Writes an article, or changes one: its category must exist, its slug be no other article's. The
 * same again changes and records nothing.
 */
export async function saveKbArticle(
  db: Db,
  input: { actorId: string; id?: number; article: KbArticleInput; now?: Date },
): Promise<KbArticleResult> {
  const refused = refusalOf(kbArticleProblem(input.article));
  if (refused) return refused;
  return orWhenTaken(SLUG_TAKEN, () =>
    inTransaction(db, async (trx): Promise<KbArticleResult> => {
      await requireStaffPermission(trx, input.actorId, "knowledgebase.manage");
      const before = input.id === undefined ? undefined : await articleOrRefuse(trx, input.id);
      await categoryOrRefuse(trx, input.article.categoryId, "categoryId");
      if (await slugTaken(trx, "kb_articles", input.article.slug, before?.id))
        throw new Refusal(SLUG_TAKEN);
      const at = (input.now ?? new Date()).toISOString();
      let id: number;
      if (before) {
        if (sameArticle(before, input.article)) return { ok: true, article: before };
        await trx
          .updateTable("kb_articles")
          .set({ ...articleColumns(input.article), updated_at: at })
          .where("id", "=", before.id)
          .execute();
        id = before.id;
      } else {
        const row = await trx
          .insertInto("kb_articles")
          .values({
            ...articleColumns(input.article),
            created_by: input.actorId,
            created_at: at,
            updated_at: at,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        id = Number(row.id);
      }
      const after = await articleOrRefuse(trx, id);
      await record(trx, { type: "kbArticle.saved", actorId: input.actorId, before, after });
      return { ok: true, article: after };
    }),
  );
}

/** Deletes an article for good. */
export async function deleteKbArticle(
  db: Db,
  input: { actorId: string; id: number },
): Promise<KbArticleResult> {
  return inTransaction(db, async (trx): Promise<KbArticleResult> => {
    await requireStaffPermission(trx, input.actorId, "knowledgebase.manage");
    const article = await articleOrRefuse(trx, input.id);
    await trx.deleteFrom("kb_articles").where("id", "=", article.id).execute();
    await record(trx, { type: "kbArticle.deleted", actorId: input.actorId, article });
    return { ok: true, article };
  });
}

const DONE = {
  "category-create": "knowledgebase.admin.categoryCreated",
  "category-update": "knowledgebase.admin.categoryUpdated",
  "category-delete": "knowledgebase.admin.categoryDeleted",
  "article-create": "knowledgebase.admin.articleCreated",
  "article-update": "knowledgebase.admin.articleUpdated",
  "article-delete": "knowledgebase.admin.articleDeleted",
} as const;

export type KbOutcome =
  { ok: true; id: number; message: (typeof DONE)[keyof typeof DONE]; name: string } | Refused;

/** /admin/knowledgebase's one action. */
export async function runKbAction(db: Db, actorId: string, action: KbAction): Promise<KbOutcome> {
  const done = (id: number, name: string): KbOutcome => ({
    ok: true,
    id,
    message: DONE[action.intent],
    name,
  });
  if (action.intent === "category-create" || action.intent === "category-update") {
    const result = await saveKbCategory(db, {
      actorId,
      id: action.intent === "category-update" ? action.id : undefined,
      category: action.category,
    });
    return result.ok ? done(result.category.id, result.category.names.en) : result;
  }
  if (action.intent === "category-delete") {
    const result = await deleteKbCategory(db, { actorId, id: action.id });
    return result.ok ? done(result.category.id, result.category.names.en) : result;
  }
  if (action.intent === "article-delete") {
    const result = await deleteKbArticle(db, { actorId, id: action.id });
    return result.ok ? done(result.article.id, result.article.titles.en) : result;
  }
  const result = await saveKbArticle(db, {
    actorId,
    id: action.intent === "article-update" ? action.id : undefined,
    article: action.article,
  });
  return result.ok ? done(result.article.id, result.article.titles.en) : result;
}

/**
 * Writes the knowledge base a new install starts with (KB_*_SEEDS, published, in the three languages),
 * at every start (prepareDatabase) but only into one the staff have never touched: no category is there
 * and the audit log has no change to one, so what the staff deleted does not come back. Several
 * processes starting at once write it once (the slugs' unique indexes).
 */
export async function seedKnowledgeBase(db: Db, now: Date = new Date()): Promise<void> {
  const any = await db.selectFrom("kb_categories").select("id").limit(1).executeTakeFirst();
  if (any) return;
  const touched = await db
    .selectFrom("audit_log")
    .select("id")
    .where("target_type", "in", ["kb_category", "kb_article"])
    .limit(1)
    .executeTakeFirst();
  if (touched) return;
  const at = now.toISOString();
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto("kb_categories")
      .values(
        KB_CATEGORY_SEEDS.map((seed, position) => ({
          ...categoryColumns({ ...seed, position }),
          created_at: at,
          updated_at: at,
        })),
      )
      .onConflict((oc) => oc.column("slug").doNothing())
      .execute();
    const ids = new Map(
      (await trx.selectFrom("kb_categories").select(["id", "slug"]).execute()).map((row) => [
        row.slug,
        Number(row.id),
      ]),
    );
    const rows = KB_ARTICLE_SEEDS.flatMap((seed, position) => {
      const categoryId = ids.get(seed.category);
      return categoryId === undefined
        ? []
        : [
            {
              ...articleColumns({ ...seed, categoryId, status: "published", position }),
              created_by: null,
              created_at: at,
              updated_at: at,
            },
          ];
    });
    if (rows.length)
      await trx
        .insertInto("kb_articles")
        .values(rows)
        .onConflict((oc) => oc.column("slug").doNothing())
        .execute();
  });
}
