import { labelKeys } from "~/lib/label-keys";
import { pageParam, searchParam, SORT_DIRECTIONS } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { adjustCoinsSchema } from "~/domain/coins/coins";
import {
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
} from "./accounts";

// Admin user management (spec sections 5 and 6). Messages are catalogue keys ("namespace.key").

// Catalogue keys (admin namespace), one family a set of values (docs/i18n.md, ADR 26).
export const USER_SORTS = [
  "created",
  "name",
  "email",
  "role",
  "coins",
  "services",
  "orders",
] as const;
export type UserSort = (typeof USER_SORTS)[number];
export const USER_SORT_LABELS = labelKeys("admin", "users.sorts", USER_SORTS);
export const SORT_DIRECTION_LABELS = labelKeys("admin", "users.directions", SORT_DIRECTIONS);
export const ROLE_FILTERS = ["all", "user", "admin"] as const;
export type RoleFilter = (typeof ROLE_FILTERS)[number];
export const ROLE_FILTER_LABELS = labelKeys("admin", "users.roleFilters", ROLE_FILTERS);

/** Accounts with a pending deletion request only, or every account (ADR 19). */
export const DELETION_FILTERS = ["all", "requested"] as const;
export type DeletionFilter = (typeof DELETION_FILTERS)[number];
export const DELETION_FILTER_LABELS = labelKeys("admin", "users.deletionFilters", DELETION_FILTERS);

export const USERS_PAGE_SIZE = 25;

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

/** A deleted account's name: the row stays for the ledger, orders and audit log, anonymised. */
export const DELETED_USER_NAME = "Deleted user";

const userId = z
  .string({ error: "admin.users.errors.notFound" })
  .trim()
  .min(1, "admin.users.errors.notFound")
  .max(100, "admin.users.errors.notFound");

export const updateUserSchema = z.object({
  userId,
  name: z
    .string({ error: "admin.users.errors.nameRequired" })
    .trim()
    .min(1, "admin.users.errors.nameRequired")
    .max(MAX_NAME_LENGTH, "admin.users.errors.nameTooLong"),
  email: z
    .string({ error: "auth.errors.emailRequired" })
    .trim()
    .min(1, "auth.errors.emailRequired")
    .max(MAX_EMAIL_LENGTH, "auth.errors.emailInvalid")
    .pipe(z.email("auth.errors.emailInvalid"))
    .transform((value) => value.toLowerCase()),
  role: z.enum(["user", "admin"], { error: "admin.users.errors.roleInvalid" }),
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

/** One account in the admin user list, with its counts of active services and of orders. */
export interface DirectoryUser {
  id: string;
  name: string;
  email: string;
  role: string;
  coinBalanceCents: number;
  activeServices: number;
  orders: number;
  createdAt: string;
  /** When the customer asked for the account to be deleted, while that request is pending. */
  deletionRequestedAt: string | null;
}
