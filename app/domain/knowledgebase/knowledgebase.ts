import { labelKeys } from "~/lib/label-keys";
import { localeFieldNames } from "~/lib/locale-fields";
import type { Department } from "~/domain/tickets/tickets";

// The knowledge base (docs/knowledgebase.md): articles the staff write per language, read at
// /knowledgebase and suggested on the new-ticket page. Pure and safe in the browser: the limits, the
// checks, which language a reader gets (English when theirs is not written), the search's folding and
// the small markup an article's body is written in. Messages are catalogue keys ("knowledgebase.…").

/** The languages an article is written in: the site's. English is required, the others fall back to it. */
export const KB_LOCALES = ["en", "fr", "ar"] as const;
export type KbLocale = (typeof KB_LOCALES)[number];
export type KbTexts = Record<KbLocale, string>;

export const KB_STATUSES = ["draft", "published"] as const;
export type KbStatus = (typeof KB_STATUSES)[number];

export const MAX_KB_NAME_LENGTH = 80;
export const MAX_KB_TITLE_LENGTH = 150;
export const MAX_KB_BODY_LENGTH = 20_000;
export const MAX_KB_SLUG_LENGTH = 80;
export const MAX_KB_POSITION = 9999;
/** The most a search lists, and the most the new-ticket page suggests. */
export const KB_SEARCH_LIMIT = 20;
export const KB_SUGGESTION_LIMIT = 5;
/** The longest search kept: longer is cut, never refused (a visitor's typing is no mistake). */
export const MAX_KB_QUERY_LENGTH = 100;

/** A slug: lower-case letters, digits and single hyphens inside, as an address shows it. */
export const KB_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface KbCategory {
  id: number;
  slug: string;
  names: KbTexts;
  department: Department | null;
  position: number;
}

export interface KbArticle {
  id: number;
  categoryId: number;
  slug: string;
  status: KbStatus;
  position: number;
  titles: KbTexts;
  bodies: KbTexts;
  authorName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the category editor saves. */
export interface KbCategoryInput {
  slug: string;
  names: KbTexts;
  department: Department | null;
  position: number;
}

/** What the article editor saves. */
export interface KbArticleInput {
  categoryId: number;
  slug: string;
  status: KbStatus;
  position: number;
  titles: KbTexts;
  bodies: KbTexts;
}

/** Each language's form field ("nameEn", "titleFr", "bodyAr"). */
export const NAME_FIELDS = localeFieldNames("name", KB_LOCALES);
export const TITLE_FIELDS = localeFieldNames("title", KB_LOCALES);
export const BODY_FIELDS = localeFieldNames("body", KB_LOCALES);

export const KB_LOCALE_LABELS = labelKeys("knowledgebase", "languages", KB_LOCALES);
export const KB_STATUS_LABELS = labelKeys("knowledgebase", "statuses", KB_STATUSES);

export type KbProblem =
  | "knowledgebase.errors.slugRequired"
  | "knowledgebase.errors.slugInvalid"
  | "knowledgebase.errors.nameRequiredEn"
  | "knowledgebase.errors.nameTooLong"
  | "knowledgebase.errors.titleRequiredEn"
  | "knowledgebase.errors.titleTooLong"
  | "knowledgebase.errors.bodyRequiredEn"
  | "knowledgebase.errors.bodyTooLong"
  | "knowledgebase.errors.positionInvalid";

/** A one-line text as saved: trimmed, runs of spaces one space. */
export function cleanLine(text: string): string {
  return text.normalize("NFC").trim().replace(/\s+/g, " ");
}

/** A body as saved: line ends made "\n", trimmed. */
export function cleanBody(text: string): string {
  return text.normalize("NFC").replace(/\r\n?/g, "\n").trim();
}

function slugProblem(slug: string): KbProblem | null {
  if (slug === "") return "knowledgebase.errors.slugRequired";
  if (slug.length > MAX_KB_SLUG_LENGTH || !KB_SLUG_PATTERN.test(slug))
    return "knowledgebase.errors.slugInvalid";
  return null;
}

function positionProblem(position: number): KbProblem | null {
  return Number.isInteger(position) && position >= 0 && position <= MAX_KB_POSITION
    ? null
    : "knowledgebase.errors.positionInvalid";
}

/** The first thing wrong with a category about to be saved, with its field, or null. */
export function kbCategoryProblem(
  category: KbCategoryInput,
): { field: string; error: KbProblem } | null {
  const slug = slugProblem(category.slug);
  if (slug) return { field: "slug", error: slug };
  if (category.names.en.trim() === "")
    return { field: NAME_FIELDS.en, error: "knowledgebase.errors.nameRequiredEn" };
  for (const locale of KB_LOCALES)
    if (category.names[locale].length > MAX_KB_NAME_LENGTH)
      return { field: NAME_FIELDS[locale], error: "knowledgebase.errors.nameTooLong" };
  const position = positionProblem(category.position);
  return position ? { field: "position", error: position } : null;
}

/**
 * The first thing wrong with an article about to be saved, with its field, or null. The form's schema
 * refuses these already; the use-cases ask again (they may be called without the form).
 */
export function kbArticleProblem(
  article: KbArticleInput,
): { field: string; error: KbProblem } | null {
  const slug = slugProblem(article.slug);
  if (slug) return { field: "slug", error: slug };
  if (article.titles.en.trim() === "")
    return { field: TITLE_FIELDS.en, error: "knowledgebase.errors.titleRequiredEn" };
  if (article.bodies.en.trim() === "")
    return { field: BODY_FIELDS.en, error: "knowledgebase.errors.bodyRequiredEn" };
  for (const locale of KB_LOCALES) {
    if (article.titles[locale].length > MAX_KB_TITLE_LENGTH)
      return { field: TITLE_FIELDS[locale], error: "knowledgebase.errors.titleTooLong" };
    if (article.bodies[locale].length > MAX_KB_BODY_LENGTH)
      return { field: BODY_FIELDS[locale], error: "knowledgebase.errors.bodyTooLong" };
  }
  const position = positionProblem(article.position);
  return position ? { field: "position", error: position } : null;
}

/** A text in the reader's language, or English when theirs is not written, and which it is. */
export function kbTextIn(texts: KbTexts, locale: KbLocale): { text: string; locale: KbLocale } {
  return texts[locale].trim() === ""
    ? { text: texts.en, locale: "en" }
    : { text: texts[locale], locale };
}

/** An article as one reader reads it: title and body each in their language, else English. */
export interface KbReading {
  title: string;
  titleLocale: KbLocale;
  body: string;
  bodyLocale: KbLocale;
}

/**
 * The title and the body chosen apart: an article whose French title is written but not its body shows
 * the French title over the English body (which the page marks as English).
 */
export function kbReadingIn(
  article: Pick<KbArticle, "titles" | "bodies">,
  locale: KbLocale,
): KbReading {
  const title = kbTextIn(article.titles, locale);
  const body = kbTextIn(article.bodies, locale);
  return { title: title.text, titleLocale: title.locale, body: body.text, bodyLocale: body.locale };
}

/** A language of the site, from whatever string came (the request's language), else English. */
export function kbLocaleOf(value: string | null | undefined): KbLocale {
  return (KB_LOCALES as readonly string[]).includes(value ?? "") ? (value as KbLocale) : "en";
}

/**
 * A text as the search compares it, the same in the code on both databases (SQLite's lower() knows
 * ASCII only): decomposed, accents, Arabic diacritics and the tatweel dropped, the alef, yeh and teh
 * marbuta forms written one way, lower case, every run of what is not a letter or a digit one space.
 */
export function searchFold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/\u0640/g, "")
    .replace(/[\u0622\u0623\u0625\u0671]/g, "\u0627")
    .replace(/\u0649/g, "\u064a")
    .replace(/\u0629/g, "\u0647")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The words of a search, folded, each once, at most eight (a pasted paragraph searches its start). */
export function searchWords(query: string, minLength = 1): string[] {
  const words = searchFold(query.slice(0, MAX_KB_QUERY_LENGTH))
    .split(" ")
    .filter((word) => word.length >= minLength);
  return [...new Set(words)].slice(0, 8);
}

/**
 * Words a ticket's subject says whatever it is about ("help with my server please", "aide pour mon
 * serveur", "مساعدة في الخادم"): a suggestion is chosen by the others. Folded as searchFold folds.
 */
const SUBJECT_STOP_WORDS = new Set(
  [
    "and",
    "are",
    "can",
    "cannot",
    "does",
    "for",
    "from",
    "have",
    "help",
    "how",
    "not",
    "please",
    "the",
    "this",
    "that",
    "what",
    "when",
    "why",
    "with",
    "you",
    "your",
    "problem",
    "issue",
    "avec",
    "aide",
    "besoin",
    "bonjour",
    "comment",
    "dans",
    "des",
    "est",
    "les",
    "mes",
    "mon",
    "merci",
    "pas",
    "pour",
    "probleme",
    "que",
    "qui",
    "sur",
    "svp",
    "une",
    "الى",
    "على",
    "عن",
    "في",
    "كيف",
    "لا",
    "ما",
    "مساعده",
    "مشكله",
    "مع",
    "من",
    "هل",
  ].map(searchFold),
);

/** The words of a ticket's subject a suggestion is chosen by: three letters or more, no stop word. */
export function subjectWords(subject: string): string[] {
  return searchWords(subject)
    .filter((word) => word.length >= 3 || /^\d+$/.test(word))
    .filter((word) => !SUBJECT_STOP_WORDS.has(word));
}

/** What a search looks in: every language's titles (and bodies), folded, between spaces. */
export function searchColumns(titles: KbTexts, bodies: KbTexts) {
  const fold = (texts: KbTexts) =>
    ` ${KB_LOCALES.map((locale) => searchFold(texts[locale]))
      .filter(Boolean)
      .join(" ")} `;
  return { search_titles: fold(titles), search_text: `${fold(titles)}${fold(bodies).trim()} ` };
}

/** A suggestion on the new-ticket page, or a search result: an article's address and title. */
export interface KbLink {
  href: string;
  title: string;
  /** The language the title is in (English when the reader's is not written). */
  locale: KbLocale;
  categoryName: string;
}

export function kbArticlePath(categorySlug: string, articleSlug: string): string {
  return `/knowledgebase/${categorySlug}/${articleSlug}`;
}

/**
 * The guide of a built-in payment method (its code, app/domain/payments), by the slug of its seeded
 * article: the top-up page links the method's instructions to it.
 */
export const PAYMENT_METHOD_GUIDES: Readonly<Record<string, string>> = {
  "orange-money": "buy-coins-orange-money",
  "inwi-money": "buy-coins-inwi-money",
  cashplus: "buy-coins-cashplus",
  "bank-transfer": "buy-coins-bank-transfer",
  paypal: "buy-coins-paypal",
  "paypal-checkout": "buy-coins-paypal-or-card",
  youcanpay: "buy-coins-card-youcan-pay",
};

/** Where the guide of a payment method is, or undefined for a method without one. */
export function paymentGuidePath(methodCode: string | null | undefined): string | undefined {
  const slug = methodCode ? PAYMENT_METHOD_GUIDES[methodCode] : undefined;
  return slug ? kbArticlePath(KB_PAYMENTS_CATEGORY, slug) : undefined;
}

/** The seeded category of the payment guides (its slug). */
export const KB_PAYMENTS_CATEGORY = "coins-and-payments";

/** The editor's label of each language's name, title and text (knowledgebase namespace). */
export const NAME_LABELS = labelKeys("knowledgebase", "admin.fields.names", KB_LOCALES);
export const TITLE_LABELS = labelKeys("knowledgebase", "admin.fields.titles", KB_LOCALES);
export const BODY_LABELS = labelKeys("knowledgebase", "admin.fields.bodies", KB_LOCALES);
