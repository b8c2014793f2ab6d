import { keysOf } from "~/lib/keys-of";

export type { ClientActionInput, UpdateUserInput, UserListQuery } from "./user-admin.schemas";

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
