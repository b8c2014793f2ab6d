import type { ProductType } from "~/domain/catalogue/catalogue";
import { DEFAULT_PLAYER_SLOTS } from "~/domain/orders/orders";
import type { ImportOrder } from "./dataset-types";
import { noteMappedStatus, remember, skip, type Writing } from "./write-context.server";
import {
  legacyPrice,
  ownedToWrite,
  resolveProduct,
  type Catalogue,
  type ProductRow,
} from "./write-refs.server";
import type { Accounts } from "./write-users.server";

/** Orders: history, with no coin movement (the imported balance already reflects what was charged). */
export async function writeOrders(w: Writing, accounts: Accounts, catalogue: Catalogue) {
  for (const { item: order, label, userId } of ownedToWrite(w, accounts, "orders")) {
    const product = resolveProduct(w, catalogue, order.serviceId, order.serviceName);
    if (!product) {
      skip(w, "orders", order.ref, label, {
        code: "serviceMissing",
        serviceId: order.serviceId,
        name: order.serviceName,
      });
      continue;
    }
    const priceCents = legacyPrice(catalogue, order) ?? product.price_cents;
    const id = await insertOrder(w, order, userId, product, priceCents);
    await remember(w, "orders", order.key, id, "created");
    noteMappedStatus(w, "orders", order, label);
  }
}

async function insertOrder(
  w: Writing,
  order: ImportOrder,
  userId: string,
  product: ProductRow,
  priceCents: number,
) {
  const type = (order.serverType ?? product.type) as ProductType;
  const createdAt = order.createdAt ?? w.now;
  const row = await w.trx
    .insertInto("orders")
    .values({
      user_id: userId,
      product_id: product.id,
      product_name: order.serviceName ?? product.name,
      product_type: type,
      product_price_cents: priceCents,
      billing_cycle: order.billingCycle,
      location: order.location,
      ddos_protection: order.ddosProtection ? 1 : 0,
      player_slots: type === "vps" ? null : (order.playerSlots ?? DEFAULT_PLAYER_SLOTS),
      backup: order.backup,
      server_name: order.serverName,
      monthly_price_cents: priceCents,
      subtotal_cents: priceCents,
      discount_cents: 0,
      total_cents: priceCents,
      paid_with_coins: order.paidWithCoins ? 1 : 0,
      status: order.status,
      // Unique like every order's key: a second guard against bringing one order in twice.
      idempotency_key: `legacy-order:${order.key}`,
      decided_at: order.status === "pending" ? null : createdAt,
      created_at: createdAt,
      updated_at: w.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
