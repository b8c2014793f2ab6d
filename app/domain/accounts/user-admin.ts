import { labelKeys } from "~/lib/label-keys";
import { SORT_DIRECTIONS } from "~/lib/sort-directions";

export type { ClientActionInput, UpdateUserInput, UserListQuery } from "./user-admin.schemas";

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

/** A deleted account's name: the row stays for the ledger, orders and audit log, anonymised. */
export const DELETED_USER_NAME = "Deleted user";

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
