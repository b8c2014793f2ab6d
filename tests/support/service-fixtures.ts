import type { HostingService } from "~/domain/hosting-services/hosting-services";

/** A customer's running SAMP service as the domain returns it, for component tests; `fields` override. */
export function hostingService(fields: Partial<HostingService> = {}): HostingService {
  const status = fields.status ?? "active";
  return {
    id: 1,
    userId: "u1",
    productId: 1,
    name: "SAMP Starter",
    serverName: "Karim RP",
    type: "samp",
    billingCycle: "monthly",
    monthlyPriceCents: 250,
    cyclePriceCents: 250,
    status,
    expiresAt: "2099-05-01T12:00:00.000Z",
    createdAt: "2020-01-01T12:00:00.000Z",
    autoRenew: false,
    suspensionReason: status === "suspended" ? "expired" : null,
    panel: null,
    ...fields,
  };
}
