import { idField } from "~/lib/id-field";
import { editorActionSchema, rowActions, saveActions, type SavedForm } from "~/lib/save-actions";
import { customIssue, z } from "~/lib/zod";
import {
  cleanText,
  cleanTitle,
  MAX_CANNED_TEXT_LENGTH,
  MAX_CANNED_TITLE_LENGTH,
  TEXT_TOO_LONG,
  unknownPlaceholders,
  type CannedReplyInput,
} from "./canned-replies";
import { DEPARTMENTS } from "./tickets";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** A text typed in one language, line ends made "\n", trimmed; empty when left out. */
function textField(tooLong: string) {
  return z
    .string()
    .optional()
    .transform((value) => cleanText(value ?? ""))
    .refine((value) => value.length <= MAX_CANNED_TEXT_LENGTH, tooLong);
}

const fields = {
  title: z
    .string({ error: "admin-tickets.cannedReplies.errors.titleRequired" })
    .transform(cleanTitle)
    .pipe(
      z
        .string()
        .min(1, "admin-tickets.cannedReplies.errors.titleRequired")
        .max(MAX_CANNED_TITLE_LENGTH, "admin-tickets.cannedReplies.errors.titleTooLong"),
    ),
  // "" (the select's "any department") or one of them.
  department: z
    .union([z.literal(""), z.enum(DEPARTMENTS)], {
      error: "admin-tickets.cannedReplies.errors.departmentInvalid",
    })
    .optional()
    .transform((value) => (value ? value : null)),
  textEn: textField(TEXT_TOO_LONG.en),
  textFr: textField(TEXT_TOO_LONG.fr),
  textAr: textField(TEXT_TOO_LONG.ar),
};
type ReplyForm = SavedForm<typeof fields>;

/**
 * What the fields cannot say alone: the English text is written (a customer whose language has none
 * reads it), and no text names a placeholder that does not exist. Run with the fields' own refusals too,
 * so every mistake is said at once.
 */
function checkReply(form: ReplyForm, ctx: z.RefinementCtx): void {
  if (typeof form.textEn === "string" && form.textEn === "")
    customIssue(ctx, "admin-tickets.cannedReplies.errors.textRequiredEn", "textEn");
  for (const field of ["textEn", "textFr", "textAr"] as const) {
    const text = form[field];
    if (typeof text === "string" && unknownPlaceholders(text).length > 0)
      customIssue(ctx, "admin-tickets.cannedReplies.errors.unknownPlaceholder", field);
  }
}

export function cannedReplyInputFrom(form: ReplyForm): CannedReplyInput {
  return {
    title: form.title,
    department: form.department,
    texts: { en: form.textEn, fr: form.textFr, ar: form.textAr },
  };
}

export const cannedReplyIdSchema = idField("admin-tickets.cannedReplies.errors.notFound");

/**
 * /admin/tickets/replies' one action, by intent: a save (create, update) carries its reply ready to
 * save; a row's buttons move it up or down the list, or delete it.
 */
export const cannedReplyActionSchema = editorActionSchema(
  "reply",
  cannedReplyInputFrom,
  "admin-tickets.cannedReplies.errors.unknownAction",
  [
    ...saveActions(fields, cannedReplyIdSchema, checkReply, { whenFieldsFail: true }),
    ...rowActions(cannedReplyIdSchema, ["up", "down", "delete"]),
  ],
);
export type CannedReplyAction = z.infer<typeof cannedReplyActionSchema>;

/**
 * The reply form posted by the picker's "Insert" button (the picker without scripts): the reply chosen
 * and what the box held. A post, so that the draft never lands in an address, a history or a log.
 */
export const cannedInsertSchema = z.object({
  intent: z.literal("insertCanned"),
  canned: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
  // What the box held when the picker's button was pressed, kept before the reply.
  message: z.string().max(20_000).optional().catch(undefined),
});
