import type { Role } from "~/domain/accounts/accounts";
import type { ServiceStatus } from "~/domain/hosting-services/hosting-services";
import type { BillingCycle, OrderStatus } from "~/domain/orders/orders";
import type { ImportAnnouncement } from "./dataset-types";

// The old values onto ours. An old value with no equivalent gets a fallback; a status says so (reported).

export const lower = (value: string | null) => (value ?? "").trim().toLowerCase();

export function legacyRole(user: { role: string | null; isAdmin: boolean | null }): Role {
  return lower(user.role) === "admin" || user.isAdmin === true ? "admin" : "user";
}

const ORDER_STATUSES_FROM: Record<string, OrderStatus> = {
  pending: "pending",
  approved: "approved",
  active: "approved",
  accepted: "approved",
  completed: "approved",
  complete: "approved",
  rejected: "rejected",
  declined: "rejected",
  cancelled: "rejected",
  canceled: "rejected",
};

const SERVICE_STATUSES_FROM: Record<string, ServiceStatus> = {
  active: "active",
  // We show an active service past its expiry as expired ourselves.
  expired: "active",
  suspended: "suspended",
  inactive: "suspended",
  paused: "suspended",
  terminated: "terminated",
  cancelled: "terminated",
  canceled: "terminated",
  deleted: "terminated",
};

function mapStatus<S extends string>(from: Record<string, S>, missing: S, unknown: S) {
  return (status: string | null): { status: S; unknown: string | null } => {
    if (!status) return { status: missing, unknown: null };
    const mapped = from[lower(status)];
    return mapped ? { status: mapped, unknown: null } : { status: unknown, unknown: status };
  };
}

/** Our status for an old order; one with no equivalent comes in as pending (reported). */
export const legacyOrderStatus = mapStatus(ORDER_STATUSES_FROM, "pending", "pending");

/** Our status for an old user service; one with no equivalent comes in suspended (reported). */
export const legacyServiceStatus = mapStatus(SERVICE_STATUSES_FROM, "active", "suspended");

export function legacyBillingCycle(value: string | null): BillingCycle {
  const word = lower(value).replace(/[^a-z]/g, "");
  if (word === "quarterly" || word === "quarter") return "quarterly";
  if (["semiannual", "semiannually", "halfyearly", "biannual"].includes(word)) return "semiannual";
  if (["annual", "annually", "yearly", "year"].includes(word)) return "annual";
  return "monthly";
}

export function pick<T extends string>(
  value: string | null,
  allowed: readonly T[],
  fallback: T,
): T {
  const word = lower(value) as T;
  return allowed.includes(word) ? word : fallback;
}

export function announcementType(value: string | null): ImportAnnouncement["type"] {
  const word = lower(value);
  if (["warning", "error", "danger", "alert", "maintenance"].includes(word)) return "warning";
  if (word === "success") return "success";
  return "info";
}

export function audience(value: string | null): ImportAnnouncement["targetAudience"] {
  const word = lower(value);
  if (["customers", "customer", "users", "user", "clients"].includes(word)) return "customers";
  if (["admins", "admin", "staff"].includes(word)) return "admins";
  return "all";
}
