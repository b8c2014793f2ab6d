import { keysOf } from "~/lib/keys-of";
import { pageParam, searchParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { adjustCoinsSchema } from "~/domain/coins/coins";
import {
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
} from "./accounts";

// Admin user management (spec sections 5 and 6). Messages are catalogue keys ("namespace.key").

// Catalogue keys (admin namespace) written out, so the catalogue test sees every one in use.
export const USER_SORT_LABELS = {
  created: "users.sorts.created",
  name: "users.sorts.name",
  email: "users.sorts.email",
  role: "users.sorts.role",
  coins: "users.sorts.coins",
  services: "users.sorts.services",
  orders: "users.sorts.orders",
} as const;
export type UserSort = keyof typeof USER_SORT_LABELS;
export const USER_SORTS = keysOf(USER_SORT_LABELS);
export const SORT_DIRECTION_LABELS = {
  asc: "users.directions.asc",
  desc: "users.directions.desc",
} as const;
export type SortDirection = keyof typeof SORT_DIRECTION_LABELS;
export const SORT_DIRECTIONS = keysOf(SORT_DIRECTION_LABELS);
export const ROLE_FILTER_LABELS = {
  all: "users.roleFilters.all",
  user: "users.roleFilters.user",
  admin: "users.roleFilters.admin",
} as const;
export type RoleFilter = keyof typeof ROLE_FILTER_LABELS;
export const ROLE_FILTERS = keysOf(ROLE_FILTER_LABELS);

/** Accounts with a pending deletion request only, or every account (ADR 19). */
export const DELETION_FILTER_LABELS = {
  all: "users.deletionFilters.all",
  requested: "users.deletionFilters.requested",
} as const;
export type DeletionFilter = keyof typeof DELETION_FILTER_LABELS;
export const DELETION_FILTERS = keysOf(DELETION_FILTER_LABELS);

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
