import { BACKUP_IDS, LOCATIONS, MAX_SERVER_NAME_LENGTH } from "~/domain/orders/orders";
import { firstOwnedById, ownedFields, type Building } from "./build-context";
import { readLegacyDate, wholeSpec } from "./field-loose";
import { optionalProductType } from "./map-products";
import { legacyBillingCycle, legacyOrderStatus, pick } from "./map-values";
import type { RawOrder } from "./schema-records";

/** Orders, by old id: history, pointing at their user and service by the old ids. */
export function buildOrders(b: Building) {
  for (const entry of firstOwnedById<RawOrder>(b, "orders", "order")) {
    const order = entry.record;
    b.data.orders.push({
      ...ownedFields(entry, legacyOrderStatus(order.status)),
      // Unknown means not charged: rejecting an imported order must never refund coins never taken.
      paidWithCoins: order.paidWithCoins === true,
      createdAt: readLegacyDate(order.createdAt) ?? readLegacyDate(order.startDate),
      billingCycle: legacyBillingCycle(order.billingCycle),
      location: pick(order.location, LOCATIONS, "germany"),
      ddosProtection: order.ddosProtection !== false,
      playerSlots: wholeSpec(order.playerSlots),
      backup: pick(order.backup, BACKUP_IDS, "choliba"),
      serverName: (order.serverName ?? "").slice(0, MAX_SERVER_NAME_LENGTH),
      serverType: optionalProductType(order.serverType),
    });
  }
}
