import { pageParam, searchParam } from "~/lib/query-params";
import { SORT_DIRECTIONS } from "~/lib/sort-directions";
import { requiredText, z } from "~/lib/zod";
import { adjustCoinsSchema } from "~/domain/coins/coins.schemas";
import {
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
} from "./accounts";
import { DELETION_FILTERS, ROLE_FILTERS, USER_SORTS } from "./user-admin";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** The list's query string: anything unexpected falls back to the default rather than failing. */
export const userListQuerySchema = z.object({
  q: searchParam,
  role: z.enum(ROLE_FILTERS).catch("all"),
  deletion: z.enum(DELETION_FILTERS).catch("all"),
  sort: z.enum(USER_SORTS).catch("created"),
  dir: z.enum(SORT_DIRECTIONS).catch("desc"),
  page: pageParam,
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

const userId = requiredText("admin.users.errors.notFound", 100);

/** A client's details as the admin edits them; a staff role is given on /admin/staff (staff.schemas.ts). */
export const updateUserSchema = z.object({
  userId,
  name: requiredText(
    "admin.users.errors.nameRequired",
    MAX_NAME_LENGTH,
    "admin.users.errors.nameTooLong",
  ),
  email: requiredText("auth.errors.emailRequired", MAX_EMAIL_LENGTH, "auth.errors.emailInvalid")
    .pipe(z.email("auth.errors.emailInvalid"))
    .transform((value) => value.toLowerCase()),
  // Empty keeps the current password.
  password: z
    .string()
    .max(MAX_PASSWORD_LENGTH, "auth.errors.passwordTooLong")
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || value.length >= MIN_PASSWORD_LENGTH, {
      message: "auth.errors.passwordTooShort",
    }),
});
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

/**
 * The clients page's one action: coins (the default, as the first form sent no intent), update, delete,
 * and complete-deletion (a customer's pending deletion request, ADR 19).
 */
export const clientActionSchema = z.preprocess(
  (value) =>
    value && typeof value === "object" && !("intent" in value && value.intent)
      ? { ...value, intent: "coins" }
      : value,
  z.discriminatedUnion(
    "intent",
    [
      adjustCoinsSchema.extend({ intent: z.literal("coins") }),
      updateUserSchema.extend({ intent: z.literal("update") }),
      z.object({ intent: z.literal("delete"), userId }),
      z.object({ intent: z.literal("complete-deletion"), userId }),
    ],
    { error: "admin.users.errors.unknownAction" },
  ),
);
export type ClientActionInput = z.infer<typeof clientActionSchema>;
