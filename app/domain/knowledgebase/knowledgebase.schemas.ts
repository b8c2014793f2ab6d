import { idField } from "~/lib/id-field";
import { customIssue, z } from "~/lib/zod";
import { DEPARTMENTS } from "~/domain/tickets/tickets";
import {
  BODY_FIELDS,
  cleanBody,
  cleanLine,
  KB_LOCALES,
  KB_SLUG_PATTERN,
  KB_STATUSES,
  MAX_KB_BODY_LENGTH,
  MAX_KB_NAME_LENGTH,
  MAX_KB_POSITION,
  MAX_KB_QUERY_LENGTH,
  MAX_KB_SLUG_LENGTH,
  MAX_KB_TITLE_LENGTH,
  NAME_FIELDS,
  TITLE_FIELDS,
  type KbArticleInput,
  type KbCategoryInput,
} from "./knowledgebase";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

const line = (max: number, tooLong: string) =>
  z
    .string()
    .optional()
    .transform((value) => cleanLine(value ?? ""))
    .refine((value) => value.length <= max, tooLong);

const body = z
  .string()
  .optional()
  .transform((value) => cleanBody(value ?? ""))
  .refine((value) => value.length <= MAX_KB_BODY_LENGTH, "knowledgebase.errors.bodyTooLong");

const slug = z
  .string()
  .optional()
  .transform((value) => (value ?? "").trim().toLowerCase())
  .pipe(
    z
      .string()
      .min(1, "knowledgebase.errors.slugRequired")
      .max(MAX_KB_SLUG_LENGTH, "knowledgebase.errors.slugInvalid")
      .regex(KB_SLUG_PATTERN, "knowledgebase.errors.slugInvalid"),
  );

// Empty is 0 (first); anything but a whole number from 0 to 9,999 is refused.
const position = z
  .string()
  .optional()
  .transform((value) => (value ?? "").trim() || "0")
  .pipe(
    z
      .string()
      .regex(/^\d{1,4}$/, "knowledgebase.errors.positionInvalid")
      .transform(Number)
      .pipe(z.number().max(MAX_KB_POSITION, "knowledgebase.errors.positionInvalid")),
  );

const department = z
  .union([z.literal(""), z.enum(DEPARTMENTS)], {
    error: "knowledgebase.errors.departmentInvalid",
  })
  .optional()
  .transform((value) => (value ? value : null));

const perLocale = <T extends z.ZodType>(names: Record<string, string>, field: T) =>
  Object.fromEntries(KB_LOCALES.map((locale) => [names[locale], field])) as Record<string, T>;

export const kbCategoryIdSchema = idField("knowledgebase.errors.categoryNotFound");
export const kbArticleIdSchema = idField("knowledgebase.errors.articleNotFound");

const categoryShape = {
  slug,
  department,
  position,
  ...perLocale(NAME_FIELDS, line(MAX_KB_NAME_LENGTH, "knowledgebase.errors.nameTooLong")),
};

const articleShape = {
  slug,
  position,
  categoryId: kbCategoryIdSchema,
  status: z.enum(KB_STATUSES, { error: "knowledgebase.errors.statusInvalid" }),
  ...perLocale(TITLE_FIELDS, line(MAX_KB_TITLE_LENGTH, "knowledgebase.errors.titleTooLong")),
  ...perLocale(BODY_FIELDS, body),
};

/**
 * What the fields cannot say alone: the English texts are written (a reader whose language has none
 * reads them). Run with the fields' own refusals too (a field that failed is not a string here), so
 * every mistake is said at once.
 */
function checkCategory(form: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (form[NAME_FIELDS.en] === "")
    customIssue(ctx, "knowledgebase.errors.nameRequiredEn", NAME_FIELDS.en);
}

function checkArticle(form: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (form[TITLE_FIELDS.en] === "")
    customIssue(ctx, "knowledgebase.errors.titleRequiredEn", TITLE_FIELDS.en);
  if (form[BODY_FIELDS.en] === "")
    customIssue(ctx, "knowledgebase.errors.bodyRequiredEn", BODY_FIELDS.en);
}

const whenRead = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === "object" && payload.value !== null,
};
const categoryCheck = z.superRefine(
  checkCategory as (value: unknown, ctx: z.RefinementCtx) => void,
  whenRead,
);
const articleCheck = z.superRefine(
  checkArticle as (value: unknown, ctx: z.RefinementCtx) => void,
  whenRead,
);

function texts(form: Record<string, unknown>, names: Record<string, string>) {
  return Object.fromEntries(
    KB_LOCALES.map((locale) => [locale, String(form[names[locale]!] ?? "")]),
  ) as KbCategoryInput["names"];
}

type CategoryForm = z.output<z.ZodObject<typeof categoryShape>>;
type ArticleForm = z.output<z.ZodObject<typeof articleShape>>;

export function kbCategoryInputFrom(form: CategoryForm): KbCategoryInput {
  return {
    slug: form.slug,
    department: form.department,
    position: form.position,
    names: texts(form, NAME_FIELDS),
  };
}

export function kbArticleInputFrom(form: ArticleForm): KbArticleInput {
  return {
    categoryId: form.categoryId,
    slug: form.slug,
    status: form.status,
    position: form.position,
    titles: texts(form, TITLE_FIELDS),
    bodies: texts(form, BODY_FIELDS),
  };
}

const actions = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("category-create"), ...categoryShape }).check(categoryCheck),
    z
      .object({ intent: z.literal("category-update"), id: kbCategoryIdSchema, ...categoryShape })
      .check(categoryCheck),
    z.object({ intent: z.literal("category-delete"), id: kbCategoryIdSchema }),
    z.object({ intent: z.literal("article-create"), ...articleShape }).check(articleCheck),
    z
      .object({ intent: z.literal("article-update"), id: kbArticleIdSchema, ...articleShape })
      .check(articleCheck),
    z.object({ intent: z.literal("article-delete"), id: kbArticleIdSchema }),
  ],
  { error: "knowledgebase.errors.unknownAction" },
);

export type KbAction =
  | { intent: "category-create"; category: KbCategoryInput }
  | { intent: "category-update"; id: number; category: KbCategoryInput }
  | { intent: "category-delete"; id: number }
  | { intent: "article-create"; article: KbArticleInput }
  | { intent: "article-update"; id: number; article: KbArticleInput }
  | { intent: "article-delete"; id: number };

/**
 * /admin/knowledgebase's one action, by intent: save or delete a category or an article. A save
 * carries its item ready to save.
 */
export const kbActionSchema = actions.transform((value): KbAction => {
  switch (value.intent) {
    case "category-create":
      return { intent: value.intent, category: kbCategoryInputFrom(value) };
    case "category-update":
      return { intent: value.intent, id: value.id, category: kbCategoryInputFrom(value) };
    case "article-create":
      return { intent: value.intent, article: kbArticleInputFrom(value) };
    case "article-update":
      return { intent: value.intent, id: value.id, article: kbArticleInputFrom(value) };
    default:
      return value;
  }
});

/** The public search's query string: `q`, cut to its limit, never refused. */
export const kbSearchQuerySchema = z.object({
  q: z
    .string()
    .optional()
    .catch(undefined)
    .transform((value) => (value ?? "").slice(0, MAX_KB_QUERY_LENGTH).trim()),
});

/** The new-ticket page's question for suggestions: the department chosen and the subject typed. */
export const kbSuggestQuerySchema = z.object({
  department: z.enum(DEPARTMENTS).optional().catch(undefined),
  subject: z
    .string()
    .optional()
    .catch(undefined)
    .transform((value) => (value ?? "").slice(0, 200)),
});
