import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { asAdmin } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { staffMember } from "../../../tests/support/staff-members";
import { describeEachDatabase } from "../../../tests/support/test-database";
import type { KbArticleInput, KbCategoryInput, KbTexts } from "./knowledgebase";
import { kbActionSchema } from "./knowledgebase.schemas";
import {
  deleteKbCategory,
  knowledgeBaseArticle,
  knowledgeBaseCategory,
  knowledgeBaseIndex,
  listKnowledgeBase,
  runKbAction,
  saveKbArticle,
  saveKbCategory,
  searchKnowledgeBase,
  suggestKbArticles,
} from "./knowledgebase.server";

const texts = (en: string, fr = "", ar = ""): KbTexts => ({ en, fr, ar });
/** A word no seeded article holds, so a search finds only what a test wrote. */
const word = () => `zq${randomUUID().replace(/-/g, "").slice(0, 10)}`;
const slugOf = () => `kb-${randomUUID().slice(0, 8)}`;

describeEachDatabase("knowledge base", (app) => {
  async function category(change: Partial<KbCategoryInput> = {}) {
    const { db, admin } = await asAdmin(app());
    const result = await saveKbCategory(db, {
      actorId: admin,
      category: {
        slug: slugOf(),
        names: texts("Servers", "Serveurs"),
        department: null,
        position: 5,
        ...change,
      },
    });
    if (!result.ok) throw new Error(result.error);
    return result.category;
  }

  async function article(categoryId: number, change: Partial<KbArticleInput> = {}) {
    const { db, admin } = await asAdmin(app());
    const result = await saveKbArticle(db, {
      actorId: admin,
      article: {
        categoryId,
        slug: slugOf(),
        status: "published",
        position: 0,
        titles: texts("Ports"),
        bodies: texts("Use the ports."),
        ...change,
      },
    });
    if (!result.ok) throw new Error(result.error);
    return result.article;
  }

  const tableCounts = async () => {
    const db = app().db;
    const [categories, articles, audit] = await Promise.all([
      db.selectFrom("kb_categories").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow(),
      db.selectFrom("kb_articles").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow(),
      db.selectFrom("audit_log").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return [Number(categories.n), Number(articles.n), Number(audit.n)];
  };

  it("starts with the seeded guides, published, in the three languages", async () => {
    const index = await knowledgeBaseIndex(app().db, "fr");
    const slugs = index.flatMap((c) => c.articles.map((a) => a.href));
    expect(slugs).toContain("/knowledgebase/game-servers/connect-samp-server");
    expect(slugs).toContain("/knowledgebase/coins-and-payments/buy-coins-orange-money");
    const samp = await knowledgeBaseArticle(app().db, "connect-samp-server", "ar");
    expect(samp?.reading).toMatchObject({ titleLocale: "ar", bodyLocale: "ar" });
    expect(samp?.reading.body).toContain("7777");
  });

  it("finds a published article by a word of its French title, and gives it in English where French is missing", async () => {
    const key = word();
    const { id } = await category();
    const written = await article(id, {
      titles: texts("Opening ports", `Ouvrir les ports ${key}`),
      bodies: texts("Open UDP 7777 in your firewall."),
    });
    // Accents and case do not matter: "OUVRIR" finds "Ouvrir".
    const results = await searchKnowledgeBase(app().db, `OUVRIR ${key}`, "fr");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ title: `Ouvrir les ports ${key}`, locale: "fr" });
    const page = await knowledgeBaseArticle(app().db, written.slug, "fr");
    expect(page?.reading).toEqual({
      title: `Ouvrir les ports ${key}`,
      titleLocale: "fr",
      body: "Open UDP 7777 in your firewall.",
      bodyLocale: "en",
    });
    // An Arabic reader gets both in English.
    expect((await knowledgeBaseArticle(app().db, written.slug, "ar"))?.reading.titleLocale).toBe(
      "en",
    );
  });

  it("hides a draft from the search, the index, its category and its address", async () => {
    const key = word();
    const cat = await category();
    const draft = await article(cat.id, { status: "draft", titles: texts(`Draft ${key}`) });
    expect(await searchKnowledgeBase(app().db, key, "en")).toEqual([]);
    expect(await knowledgeBaseArticle(app().db, draft.slug, "en")).toBeUndefined();
    expect(await knowledgeBaseCategory(app().db, cat.slug, "en")).toBeUndefined();
    expect(await suggestKbArticles(app().db, { subject: key, locale: "en" })).toEqual([]);
    // Published, it shows.
    const { db, admin } = await asAdmin(app());
    const { categoryId, slug, position, titles, bodies } = draft;
    const saved = await saveKbArticle(db, {
      actorId: admin,
      id: draft.id,
      article: { categoryId, slug, position, titles, bodies, status: "published" },
    });
    expect(saved.ok).toBe(true);
    expect(await searchKnowledgeBase(app().db, key, "en")).toHaveLength(1);
  });

  it("lists a category's articles in the staff's order, ids breaking a tie, and title matches first", async () => {
    const key = word();
    const cat = await category();
    const third = await article(cat.id, { position: 2, titles: texts(`C ${key}`) });
    const first = await article(cat.id, { position: 0, titles: texts("A"), bodies: texts(key) });
    const second = await article(cat.id, { position: 0, titles: texts(`B ${key}`) });
    const page = await knowledgeBaseCategory(app().db, cat.slug, "en");
    expect(page?.articles.map((a) => a.title)).toEqual(["A", `B ${key}`, `C ${key}`]);
    const found = await searchKnowledgeBase(app().db, key, "en");
    // B and C hold the word in their titles; A only in its body.
    expect(found.map((a) => a.href.split("/").at(-1))).toEqual([
      second.slug,
      third.slug,
      first.slug,
    ]);
  });

  it("suggests articles from a ticket's subject, the department's first", async () => {
    const key = word();
    const billing = await category({ department: "billing" });
    const technical = await category({ department: "technical" });
    const tech = await article(technical.id, { titles: texts(`Lag ${key}`) });
    const bill = await article(billing.id, { titles: texts(`Refund ${key}`) });
    const asBilling = await suggestKbArticles(app().db, {
      subject: `help with ${key} please`,
      department: "billing",
      locale: "fr",
    });
    expect(asBilling.map((a) => a.href.split("/").at(-1))).toEqual([bill.slug, tech.slug]);
    const seeded = await suggestKbArticles(app().db, {
      subject: "cannot connect to my SA-MP server",
      department: "technical",
      locale: "fr",
    });
    expect(seeded[0]).toMatchObject({
      href: "/knowledgebase/game-servers/connect-samp-server",
      title: "Se connecter à votre serveur SA-MP",
    });
    expect(await suggestKbArticles(app().db, { subject: "a b", locale: "en" })).toEqual([]);
  });

  it("refuses a slug another article has, an unknown category and missing English, changing nothing", async () => {
    const cat = await category();
    const taken = await article(cat.id);
    const { db, admin } = await asAdmin(app());
    const before = await tableCounts();
    const base: KbArticleInput = {
      categoryId: cat.id,
      slug: slugOf(),
      status: "published",
      position: 0,
      titles: texts("Title"),
      bodies: texts("Body"),
    };
    expect(
      await saveKbArticle(db, { actorId: admin, article: { ...base, slug: taken.slug } }),
    ).toEqual({
      ok: false,
      kind: "conflict",
      error: "knowledgebase.errors.slugTaken",
      field: "slug",
    });
    expect(
      await saveKbArticle(db, { actorId: admin, article: { ...base, categoryId: 999_999 } }),
    ).toMatchObject({
      ok: false,
      error: "knowledgebase.errors.categoryNotFound",
      field: "categoryId",
    });
    expect(
      await saveKbArticle(db, { actorId: admin, article: { ...base, titles: texts("", "Titre") } }),
    ).toMatchObject({ ok: false, error: "knowledgebase.errors.titleRequiredEn", field: "titleEn" });
    expect(
      await saveKbArticle(db, { actorId: admin, article: { ...base, bodies: texts(" ") } }),
    ).toMatchObject({ ok: false, error: "knowledgebase.errors.bodyRequiredEn", field: "bodyEn" });
    const catTaken = await saveKbCategory(db, {
      actorId: admin,
      category: { slug: cat.slug, names: texts("Other"), department: null, position: 0 },
    });
    expect(catTaken).toMatchObject({ ok: false, error: "knowledgebase.errors.slugTaken" });
    // A category holding articles is not deleted.
    expect(await deleteKbCategory(db, { actorId: admin, id: cat.id })).toMatchObject({
      ok: false,
      error: "knowledgebase.errors.categoryNotEmpty",
    });
    expect(await tableCounts()).toEqual(before);
  });

  it("reads the admin's form with a clear message for each mistake", () => {
    const parsed = kbActionSchema.safeParse({
      intent: "article-create",
      categoryId: "x",
      slug: "Not a slug",
      status: "live",
      position: "-1",
      titleEn: "",
      bodyEn: "",
    });
    expect(parsed.success).toBe(false);
    const messages = Object.fromEntries(
      parsed.error!.issues.map((issue) => [String(issue.path[0]), issue.message]),
    );
    expect(messages).toMatchObject({
      categoryId: "knowledgebase.errors.categoryNotFound",
      slug: "knowledgebase.errors.slugInvalid",
      status: "knowledgebase.errors.statusInvalid",
      position: "knowledgebase.errors.positionInvalid",
      titleEn: "knowledgebase.errors.titleRequiredEn",
      bodyEn: "knowledgebase.errors.bodyRequiredEn",
    });
  });

  it("lets Owner and Support write it, not Billing, and audits each change", async () => {
    const cat = await category();
    const billing = await staffMember(app(), "billing");
    const support = await staffMember(app(), "support");
    const action = {
      intent: "article-create" as const,
      article: {
        categoryId: cat.id,
        slug: slugOf(),
        status: "draft" as const,
        position: 0,
        titles: texts("Support wrote"),
        bodies: texts("Body"),
      },
    };
    expect(await runKbAction(app().db, billing, action)).toMatchObject({
      ok: false,
      kind: "forbidden",
    });
    const done = await runKbAction(app().db, support, action);
    expect(done).toMatchObject({ ok: true, message: "knowledgebase.admin.articleCreated" });
    const id = done.ok ? done.id : 0;
    const audit = await readRows(
      app().db,
      "audit_log",
      ["action", "actor_id"],
      { target_type: "kb_article", target_id: String(id) },
      "id",
    );
    expect(audit).toEqual([{ action: "kb_article.create", actor_id: support }]);
    const listed = await listKnowledgeBase(app().db);
    expect(listed.articles.find((a) => a.id === id)?.status).toBe("draft");
  });
});
