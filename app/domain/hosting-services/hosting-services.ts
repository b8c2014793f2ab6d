import { customIssue, z } from "~/lib/zod";
import { BILLING_CYCLE_IDS, type BillingCycle } from "~/domain/orders/orders";
import { parseCoinAmount } from "~/domain/coins/coins";

export const SERVICE_STATUSES = ["active", "suspended", "terminated"] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
export const ADMIN_SERVICE_DAYS = 30;
export const RENEWAL_WINDOW_DAYS = 14;

export type ServiceAction = "suspend" | "reactivate" | "terminate";

/** Spec section 4: active ↔ suspended; terminated is final. */
export const TRANSITIONS: Record<ServiceAction, { from: ServiceStatus[]; to: ServiceStatus }> = {
  suspend: { from: ["active"], to: "suspended" },
  reactivate: { from: ["suspended"], to: "active" },
  terminate: { from: ["active", "suspended"], to: "terminated" },
};

export function canTransition(status: ServiceStatus, action: ServiceAction): boolean {
  return TRANSITIONS[action].from.includes(status);
}

/** What a customer sees: an active service past its expiry shows as expired, one near it as expiring soon. */
export type DisplayStatus = ServiceStatus | "expired" | "expiring";

// Catalogue keys (services namespace) written out, so the catalogue test sees every one in use.
export const SERVICE_STATUS_LABELS = {
  active: "status.active",
  suspended: "status.suspended",
  terminated: "status.terminated",
  expired: "status.expired",
  expiring: "status.expiring",
} as const satisfies Record<DisplayStatus, string>;
export const SERVICE_ACTION_LABELS = {
  suspend: "admin.suspend",
  reactivate: "admin.reactivate",
  terminate: "admin.terminate",
} as const satisfies Record<ServiceAction, string>;

export function displayStatus(
  status: ServiceStatus,
  expiresAt: string,
  now = new Date(),
): DisplayStatus {
  if (status !== "active") return status;
  const left = Date.parse(expiresAt) - now.getTime();
  if (left <= 0) return "expired";
  if (left <= 3 * 86_400_000) return "expiring";
  return "active";
}

/** Badge colours of spec section 4: active green, suspended yellow, expired or expiring red, pending blue. */
export function badgeTone(status: string): "green" | "yellow" | "red" | "blue" | "grey" {
  switch (status) {
    case "active":
    case "approved":
      return "green";
    case "suspended":
      return "yellow";
    case "expired":
    case "expiring":
    case "rejected":
      return "red";
    case "pending":
      return "blue";
    default:
      return "grey";
  }
}

/** A customer may renew an active (or expired) service; suspended and terminated ones go through support. */
export function canRenew(status: ServiceStatus): boolean {
  return status === "active";
}

export const addServiceSchema = z.object({
  userId: z.string().trim().min(1, "services.errors.required").max(100),
  name: z
    .string()
    .trim()
    .min(1, "services.errors.required")
    .max(100, "services.errors.nameTooLong"),
  price: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value || !value.trim()) return 0;
      const cents = parseCoinAmount(value);
      if (cents === null || cents < 0) {
        customIssue(ctx, "services.errors.priceInvalid");
        return z.NEVER;
      }
      return cents;
    }),
  productId: z
    .string()
    .optional()
    .transform((value) => (value && /^\d+$/.test(value) ? Number(value) : undefined)),
  serverName: z.string().trim().max(64).optional().default(""),
  billingCycle: z.enum(BILLING_CYCLE_IDS as [BillingCycle, ...BillingCycle[]]).default("monthly"),
});

export const serviceActionSchema = z.discriminatedUnion("intent", [
  addServiceSchema.extend({ intent: z.literal("add") }),
  z.object({
    intent: z.enum(["suspend", "reactivate", "terminate", "delete"]),
    serviceId: z.coerce.number().int().positive(),
  }),
]);

export const renewSchema = z.object({
  serviceId: z.coerce.number().int().positive(),
  idempotencyKey: z.string().trim().min(16).max(100),
});

export interface HostingService {
  id: number;
  userId: string;
  productId: number | null;
  name: string;
  serverName: string;
  type: string | null;
  billingCycle: BillingCycle;
  monthlyPriceCents: number;
  cyclePriceCents: number;
  status: ServiceStatus;
  expiresAt: string;
  createdAt: string;
}

/** A service in the admin list, with whose it is. */
export interface AdminServiceView extends HostingService {
  userEmail: string;
  userName: string;
}
