import type { Product } from "~/domain/catalogue/catalogue";
import { record } from "~/domain/events/events.server";
import { createServiceFromOrder } from "~/domain/hosting-services/service-rows.server";
import {
  lockPanelRoom,
  panelHasRoom,
  planProvisioning,
} from "~/domain/provisioning/provisioning.server";
import { refuse, type Tx } from "~/db/transaction";
import { decideActivation, type TrustFacts, type WaitReason } from "./order-approval";
import { decidePending, orderRef, toOrder, type DecideResult } from "./order-rows.server";

// An order's approval as one step, whoever approves: an admin on /admin/orders (`approveOrder`), or the
// system as the order is placed, when its plan activates when paid and the customer is trusted
// (`activateWhenPaid`, docs/money.md#activation-on-payment).

/**
 * Step: a pending order approved by `actorId` (null: the system, as the order was placed): its service
 * created, active for one cycle from `now`, and a product made on the game panel planned with its create
 * job, or the approval refused when its location has no room left (the transaction rolls back: reject it
 * to refund). Happens at most once (the conditional update of decidePending).
 */
export async function approvePending(
  trx: Tx,
  input: { orderId: number; actorId: string | null; now: Date },
): Promise<DecideResult & { ok: true }> {
  const { now } = input;
  const decided = await decidePending(trx, input, { status: "approved" }, now.toISOString());
  const order = toOrder(decided);
  const service = await createServiceFromOrder(
    trx,
    {
      userId: order.userId,
      productId: order.productId,
      productName: order.productName,
      productType: order.productType,
      serverName: order.serverName,
      billingCycle: order.billingCycle,
      monthlyPriceCents: order.monthlyPriceCents,
      cyclePriceCents: order.subtotalCents,
      autoRenew: Number(decided.auto_renew) === 1,
    },
    now,
  );
  await trx
    .updateTable("orders")
    .set({ hosting_service_id: service.id })
    .where("id", "=", order.id)
    .execute();
  const planned = await planProvisioning(trx, {
    serviceId: service.id,
    productId: order.productId,
    serverName: order.serverName,
    order: {
      location: order.location,
      playerSlots: order.playerSlots,
      backup: order.backup,
      ddosProtection: order.ddosProtection,
    },
    now,
  });
  if (planned === "noRoom") refuse<DecideResult>("conflict", "orders.errors.locationFull");
  await record(
    trx,
    {
      type: "order.approved",
      actorId: input.actorId,
      automatic: input.actorId === null,
      order: orderRef(order),
      serviceId: service.id,
      expiresAt: service.expiresAt,
      setup: planned === "planned" ? "panel" : "manual",
      totalCents: order.totalCents,
    },
    now,
  );
  return { ok: true, order: { ...order, hostingServiceId: service.id } };
}

/**
 * The trust rule's facts about a customer, read in the order's transaction: their address verified,
 * a top-up request of theirs approved (an admin's approval and an online payment's credit both end in
 * `approved`), an order of theirs approved (an approved order stays `approved`: its service ending later
 * does not undo that it was paid and approved).
 */
export async function readTrustFacts(trx: Tx, userId: string): Promise<TrustFacts> {
  const [user, topUp, order] = await Promise.all([
    trx.selectFrom("users").select("email_verified").where("id", "=", userId).executeTakeFirst(),
    trx
      .selectFrom("top_up_requests")
      .select("id")
      .where("user_id", "=", userId)
      .where("state", "=", "approved")
      .limit(1)
      .executeTakeFirst(),
    trx
      .selectFrom("orders")
      .select("id")
      .where("user_id", "=", userId)
      .where("status", "=", "approved")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const verified = user?.email_verified;
  return {
    emailVerified: verified === true || verified === 1,
    hasApprovedTopUp: topUp !== undefined,
    hasApprovedOrder: order !== undefined,
  };
}

/**
 * Step of placing an order, before it is inserted: whether the system approves it at once. The room is
 * the approval's own check (panelHasRoom, which planProvisioning makes), asked with the panel's row
 * locked on PostgreSQL, so two orders placed at once cannot both take the last room; an order the
 * approval would refuse is not approved but waits (`noRoom`).
 */
export function activationOnPayment(
  trx: Tx,
  input: { userId: string; product: Product; location: string },
): Promise<{ approve: true } | { approve: false; reason: WaitReason }> {
  return decideActivation(input.product.activateWhenPaid, {
    trust: () => readTrustFacts(trx, input.userId),
    room: async () => {
      if (!input.product.provisioned) return true;
      await lockPanelRoom(trx);
      return panelHasRoom(trx, input.product.id, input.location);
    },
  });
}
