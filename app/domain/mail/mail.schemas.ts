import { pageParam, textParam } from "~/lib/query-params";
import { ticked, z } from "~/lib/zod";
import {
  MAIL_STATES,
  OPTIONAL_MAIL_KINDS,
  STAFF_MAIL_CHOICES,
  type OptionalMailKind,
  type StaffMailChoice,
} from "./mail";

// Schemas only: loaders, *.server.ts and tests import this file, never a page's code.

const rowId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** /admin/mail's query string: anything unexpected falls back to the default. */
export const mailListQuerySchema = z.object({
  state: z.enum(MAIL_STATES).optional().catch(undefined),
  /** Part of the recipient's address (an email is at most 254 characters). */
  to: textParam(254),
  /** The message shown in full. */
  open: rowId.optional().catch(undefined),
  page: pageParam,
});
export type MailListQuery = z.infer<typeof mailListQuerySchema>;

/** The account tab's mail form: one checkbox per kind a customer may turn off, ticked to receive it. */
export const mailPreferencesSchema = z
  .object({
    intent: z.literal("mail-preferences"),
    ...(Object.fromEntries(OPTIONAL_MAIL_KINDS.map((kind) => [kind, ticked()])) as Record<
      OptionalMailKind,
      ReturnType<typeof ticked>
    >),
  })
  .transform((form) => ({
    intent: form.intent,
    receive: OPTIONAL_MAIL_KINDS.filter((kind) => form[kind]),
  }));

/**
 * /admin/notifications' email card: one checkbox per staff message an admin may ask for, ticked to
 * receive it (STAFF_MAIL_CHOICES, off by default).
 */
export const staffMailChoicesSchema = z
  .object({
    intent: z.literal("staff-mail"),
    ...(Object.fromEntries(STAFF_MAIL_CHOICES.map((kind) => [kind, ticked()])) as Record<
      StaffMailChoice,
      ReturnType<typeof ticked>
    >),
  })
  .transform((form) => ({
    intent: form.intent,
    receive: STAFF_MAIL_CHOICES.filter((kind) => form[kind]),
  }));
