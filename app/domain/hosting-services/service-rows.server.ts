import { BILLING_CYCLES, cycleEnd, type BillingCycle } from "~/domain/orders/orders";
import { ofCustomer } from "~/db/customer-rows";
import { rowOrRefuse, type Tx } from "~/db/transaction";
import { servicePanelOf } from "~/domain/provisioning/panel-plan";
import { suspensionReasonOf, type HostingService, type ServiceStatus } from "./hosting-services";

// A service's row, as every use-case of the area reads and maps it, and the step that makes one. Orders
// import createServiceFromOrder from here: this module reads no other area's use-cases, so an order's
// approval loads no cycle back to orders.

/** What a service's use-cases read of its row (toService's fields and `suspended_at`). */
export const SERVICE_COLUMNS = [
  "id",
  "user_id",
  "product_id",
  "name",
  "server_name",
  "type",
  "billing_cycle",
  "monthly_price_cents",
  "cycle_price_cents",
  "status",
  "expires_at",
  "created_at",
  "auto_renew",
  "suspension_reason",
  "suspended_at",
  "panel_state",
  "panel_address",
  "panel_ports",
  "panel_identifier",
] as const;

// What toService reads: not `suspended_at`, which SERVICE_COLUMNS reads along for renewService (the
// refund of a renewal restores the suspension it lifted) and which the admin list's ADMIN_SERVICE_COLUMNS
// lacks.
type Row = {
  id: number;
  user_id: string;
  product_id: number | null;
  name: string;
  server_name: string;
  type: string | null;
  billing_cycle: string;
  monthly_price_cents: number;
  cycle_price_cents: number;
  status: string;
  expires_at: string;
  created_at: string;
  auto_renew: number;
  suspension_reason: string | null;
  panel_state: string | null;
  panel_address: string | null;
  panel_ports: string | null;
  panel_identifier: string | null;
};

/** `panelUrl`: the game panel's address, for the link to a server's page. */
export function toService(row: Row, panelUrl: string | null = null): HostingService {
  return {
    id: Number(row.id),
    userId: row.user_id,
    productId: row.product_id,
    name: row.name,
    serverName: row.server_name,
    type: row.type,
    billingCycle: (row.billing_cycle in BILLING_CYCLES
      ? row.billing_cycle
      : "monthly") as BillingCycle,
    monthlyPriceCents: row.monthly_price_cents,
    cyclePriceCents: row.cycle_price_cents,
    status: row.status as ServiceStatus,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    autoRenew: Number(row.auto_renew) === 1,
    suspensionReason: row.status === "suspended" ? suspensionReasonOf(row.suspension_reason) : null,
    panel: servicePanelOf(row, panelUrl),
  };
}

/**
 * A step: a new active service, running one term of its billing cycle from `now` (1, 3, 6 or 12 calendar
 * months, `cycleEnd`). An approved order and an admin's "add service" both make their service here.
 */
export async function insertService(
  trx: Tx,
  service: Omit<
    HostingService,
    "id" | "status" | "expiresAt" | "createdAt" | "autoRenew" | "suspensionReason" | "panel"
  > & { autoRenew?: boolean },
  now: Date,
): Promise<HostingService> {
  const iso = now.toISOString();
  const row = await trx
    .insertInto("hosting_services")
    .values({
      user_id: service.userId,
      product_id: service.productId,
      name: service.name,
      server_name: service.serverName,
      type: service.type,
      billing_cycle: service.billingCycle,
      monthly_price_cents: service.monthlyPriceCents,
      cycle_price_cents: service.cyclePriceCents,
      status: "active",
      expires_at: cycleEnd(now, service.billingCycle),
      created_at: iso,
      updated_at: iso,
      auto_renew: service.autoRenew ? 1 : 0,
    })
    .returning(SERVICE_COLUMNS)
    .executeTakeFirstOrThrow();
  return toService(row);
}

/** A step: the service an approved order becomes, active for one cycle from now. */
export async function createServiceFromOrder(
  trx: Tx,
  order: {
    userId: string;
    productId: number;
    productName: string;
    productType: string;
    serverName: string;
    billingCycle: BillingCycle;
    monthlyPriceCents: number;
    cyclePriceCents: number;
    /** The order form's automatic renewal switch. */
    autoRenew?: boolean;
  },
  now = new Date(),
): Promise<HostingService> {
  return insertService(
    trx,
    {
      userId: order.userId,
      productId: order.productId,
      name: order.productName,
      serverName: order.serverName,
      type: order.productType,
      billingCycle: order.billingCycle,
      monthlyPriceCents: order.monthlyPriceCents,
      cyclePriceCents: order.cyclePriceCents,
      autoRenew: order.autoRenew ?? false,
    },
    now,
  );
}

export const serviceNotFound = {
  ok: false,
  kind: "notFound",
  error: "services.errors.notFound",
} as const;

/** A service's row as its events name it. */
export function serviceRef(row: {
  id: number | bigint;
  user_id: string;
  name: string;
  server_name: string;
}) {
  return { id: Number(row.id), userId: row.user_id, name: row.name, serverName: row.server_name };
}

/** Step: the service (the customer's own, when `userId` is given), or a notFound refusal. */
export async function findServiceOrRefuse(trx: Tx, serviceId: number, userId?: string) {
  const query = trx
    .selectFrom("hosting_services")
    .select(SERVICE_COLUMNS)
    .where("id", "=", serviceId);
  return rowOrRefuse(ofCustomer(query, "hosting_services", userId), serviceNotFound);
}
