import { describe, expect, it } from "vitest";
import { articleBlocks, inlineOf, plainExcerpt, safeHref } from "./article-markup";
import {
  kbArticleProblem,
  kbReadingIn,
  kbTextIn,
  paymentGuidePath,
  searchColumns,
  searchFold,
  searchWords,
  type KbArticleInput,
} from "./knowledgebase";
import { KB_ARTICLE_SEEDS } from "./knowledgebase-seeds";

const texts = (en: string, fr = "", ar = "") => ({ en, fr, ar });

describe("the language a reader gets", () => {
  it("gives the reader's own text when it is written, else the English one, and says which", () => {
    expect(kbTextIn(texts("Hello", "Bonjour"), "fr")).toEqual({ text: "Bonjour", locale: "fr" });
    expect(kbTextIn(texts("Hello", "  "), "fr")).toEqual({ text: "Hello", locale: "en" });
    expect(kbTextIn(texts("Hello", "Bonjour"), "ar")).toEqual({ text: "Hello", locale: "en" });
  });

  it("chooses the title and the body apart: a French title over an English body", () => {
    const reading = kbReadingIn(
      { titles: texts("Ports", "Les ports"), bodies: texts("Use 7777.") },
      "fr",
    );
    expect(reading).toEqual({
      title: "Les ports",
      titleLocale: "fr",
      body: "Use 7777.",
      bodyLocale: "en",
    });
  });
});

describe("the body's markup", () => {
  it("shows a script as text, never as HTML", () => {
    const blocks = articleBlocks('<script>alert("x")</script>\n\n<img src=x onerror=alert(1)>');
    expect(blocks).toEqual([
      { kind: "paragraph", content: [{ kind: "text", text: '<script>alert("x")</script>' }] },
      { kind: "paragraph", content: [{ kind: "text", text: "<img src=x onerror=alert(1)>" }] },
    ]);
  });

  it("reads headings, lists, numbered lists, code blocks and paragraphs", () => {
    const blocks = articleBlocks(
      [
        "## Connect",
        "1. Start",
        "2. Join",
        "",
        "- a",
        "- b",
        "```",
        "<b>kept</b>",
        "```",
        "End",
      ].join("\n"),
    );
    expect(blocks.map((block) => block.kind)).toEqual([
      "heading",
      "list",
      "list",
      "code",
      "paragraph",
    ]);
    expect(blocks[1]).toMatchObject({ ordered: true });
    expect(blocks[2]).toMatchObject({ ordered: false });
    expect(blocks[3]).toEqual({ kind: "code", text: "<b>kept</b>" });
  });

  it("makes links only of web, mail and site addresses; a javascript: one stays text", () => {
    expect(inlineOf("see [the panel](https://panel.example.com) or `7777`")).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", text: "the panel", href: "https://panel.example.com" },
      { kind: "text", text: " or " },
      { kind: "code", text: "7777" },
    ]);
    expect(inlineOf("[x](javascript:alert(1))")).toEqual([
      { kind: "text", text: "[x](javascript:alert(1))" },
    ]);
    expect(safeHref("/dashboard/top-up")).toBe("/dashboard/top-up");
    expect(safeHref("//evil.example")).toBeNull();
    expect(safeHref("data:text/html,hi")).toBeNull();
  });

  it("gives a plain excerpt without markup", () => {
    expect(plainExcerpt("## Title\nSome [link](/x) text.")).toBe("Some link text.");
  });
});

describe("the search's folding", () => {
  it("folds case, accents and Arabic forms alike on both sides", () => {
    expect(searchFold("Se CONNECTER à l'Écran")).toBe("se connecter a l ecran");
    expect(searchFold("إتصال")).toBe(searchFold("اتصال"));
    expect(searchWords("  Port, port! UDP  ")).toEqual(["port", "udp"]);
    expect(searchWords("a bc def", 3)).toEqual(["def"]);
  });

  it("keeps every language's titles and bodies between spaces", () => {
    const columns = searchColumns(texts("Ports", "Les Ports"), texts("Use 7777"));
    expect(columns.search_titles).toBe(" ports les ports ");
    expect(columns.search_text).toBe(" ports les ports use 7777 ");
  });
});

describe("an article's checks", () => {
  const article: KbArticleInput = {
    categoryId: 1,
    slug: "ports",
    status: "draft",
    position: 0,
    titles: texts("Ports"),
    bodies: texts("Use 7777."),
  };

  it("requires the English title and body and a well-formed slug", () => {
    expect(kbArticleProblem(article)).toBeNull();
    expect(kbArticleProblem({ ...article, titles: texts(" ", "Ports") })).toEqual({
      field: "titleEn",
      error: "knowledgebase.errors.titleRequiredEn",
    });
    expect(kbArticleProblem({ ...article, bodies: texts("", "Texte") })).toEqual({
      field: "bodyEn",
      error: "knowledgebase.errors.bodyRequiredEn",
    });
    expect(kbArticleProblem({ ...article, slug: "Bad Slug" })?.error).toBe(
      "knowledgebase.errors.slugInvalid",
    );
  });
});

describe("the seeded guides", () => {
  it("has a guide for every payment method the top-up page links, in every language", () => {
    for (const code of ["orange-money", "bank-transfer", "paypal", "youcanpay"]) {
      const slug = paymentGuidePath(code)!.split("/").at(-1);
      const seed = KB_ARTICLE_SEEDS.find((article) => article.slug === slug);
      expect(seed, code).toBeDefined();
      for (const text of [...Object.values(seed!.titles), ...Object.values(seed!.bodies)])
        expect(text.trim()).not.toBe("");
    }
  });

  it("says the ports a player needs", () => {
    const body = (slug: string) => KB_ARTICLE_SEEDS.find((a) => a.slug === slug)!.bodies;
    expect(body("connect-samp-server").fr).toContain("7777 UDP");
    expect(body("connect-mta-server").ar).toContain("22003");
    expect(body("connect-mta-server").en).toMatch(/22005[\s\S]*22126/);
    expect(body("sftp-access").en).toContain("2022");
  });
});
