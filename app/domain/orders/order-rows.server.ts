import type { Selectable } from "kysely";
import type { OrdersTable } from "~/db/schema";
import { Refusal, type Tx } from "~/db/transaction";
import type { BillingCycle, Order, OrderStatus } from "./orders";
import { isWaitReason } from "./order-approval";

// An order's row as the orders' use-cases read it, and the step that decides a pending one: shared by
// placing (orders.server.ts) and approving (order-approval.server.ts).

export const orderColumns = [
  "id",
  "user_id",
  "product_id",
  "product_name",
  "product_type",
  "billing_cycle",
  "location",
  "ddos_protection",
  "player_slots",
  "backup",
  "server_name",
  "voucher_code",
  "monthly_price_cents",
  "subtotal_cents",
  "discount_cents",
  "total_cents",
  "paid_with_coins",
  "status",
  "reject_reason",
  "hosting_service_id",
  "created_at",
  "decided_at",
  "wait_reason",
] as const;

export type OrderRow = Pick<Selectable<OrdersTable>, (typeof orderColumns)[number]>;

export function toOrder(row: OrderRow): Order {
  return {
    id: Number(row.id),
    userId: row.user_id,
    productId: row.product_id,
    productName: row.product_name,
    productType: row.product_type,
    billingCycle: row.billing_cycle as BillingCycle,
    location: row.location,
    ddosProtection: row.ddos_protection === 1,
    playerSlots: row.player_slots,
    backup: row.backup,
    serverName: row.server_name,
    voucherCode: row.voucher_code,
    monthlyPriceCents: row.monthly_price_cents,
    subtotalCents: row.subtotal_cents,
    discountCents: row.discount_cents,
    totalCents: row.total_cents,
    paidWithCoins: row.paid_with_coins === 1,
    status: row.status as OrderStatus,
    rejectReason: row.reject_reason,
    hostingServiceId: row.hosting_service_id,
    createdAt: row.created_at,
    decidedAt: row.decided_at,
    waitReason: isWaitReason(row.wait_reason) ? row.wait_reason : null,
  };
}

export type DecideResult =
  | { ok: true; order: Order }
  | { ok: false; kind: "notFound"; error: "orders.errors.notFound" }
  /** Decided since the page listed it (`status` says how). */
  | { ok: false; kind: "conflict"; error: "orders.errors.notPending"; status: OrderStatus }
  /** The refund would take the customer's balance past MAX_BALANCE_CENTS. */
  | { ok: false; kind: "conflict"; error: "coins.errors.balanceTooHigh" }
  /** Approve only: a product made on the game panel, and its location has no room now. */
  | { ok: false; kind: "conflict"; error: "orders.errors.locationFull" };

/** An order as its events name it. */
export function orderRef(order: Order) {
  const { id, userId, productName, serverName } = order;
  return { id, userId, productName, serverName };
}

/** Step: a pending order marked decided by the actor; refused (notFound, notPending) otherwise. */
export async function decidePending(
  trx: Tx,
  input: { orderId: number; actorId: string | null },
  decision: { status: "approved" } | { status: "rejected"; reject_reason: string },
  now: string,
) {
  const decided = await trx
    .updateTable("orders")
    .set({ ...decision, decided_by: input.actorId, decided_at: now, updated_at: now })
    .where("id", "=", input.orderId)
    .where("status", "=", "pending")
    .returning([...orderColumns, "voucher_id", "auto_renew"])
    .executeTakeFirst();
  if (!decided) throw new Refusal<DecideResult>(await whyNotPending(trx, input.orderId));
  return decided;
}

async function whyNotPending(trx: Tx, orderId: number): Promise<DecideResult> {
  const row = await trx
    .selectFrom("orders")
    .select("status")
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!row) return { ok: false, kind: "notFound", error: "orders.errors.notFound" };
  return {
    ok: false,
    kind: "conflict",
    error: "orders.errors.notPending",
    status: row.status as OrderStatus,
  };
}
