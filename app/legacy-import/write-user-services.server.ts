import { addDays } from "~/domain/orders/orders";
import { LEGACY_SERVICE_DAYS } from "./collections";
import { noteMappedStatus, remember, type Writing } from "./write-context.server";
import { legacyPrice, ownedToWrite, resolveProduct, type Catalogue } from "./write-refs.server";
import type { Accounts } from "./write-users.server";

/** User services: hosting services, which may stand without a catalogue product (as an admin-added one does). */
export async function writeUserServices(w: Writing, accounts: Accounts, catalogue: Catalogue) {
  for (const { item: service, label, userId } of ownedToWrite(w, accounts, "userServices")) {
    const product = resolveProduct(w, catalogue, service.serviceId, service.serviceName);
    const priceCents = legacyPrice(catalogue, service) ?? product?.price_cents ?? 0;
    const createdAt = service.createdAt ?? w.now;
    const row = await w.trx
      .insertInto("hosting_services")
      .values({
        user_id: userId,
        product_id: product?.id ?? null,
        name: (service.serviceName ?? product?.name ?? `Service ${service.key}`).slice(0, 100),
        server_name: "",
        type: product?.type ?? null,
        billing_cycle: "monthly",
        monthly_price_cents: priceCents,
        cycle_price_cents: priceCents,
        status: service.status,
        expires_at: service.expiresAt ?? addDays(createdAt, LEGACY_SERVICE_DAYS),
        created_at: createdAt,
        updated_at: w.now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await remember(w, "userServices", service.key, row.id, "created");
    noteMappedStatus(w, "userServices", service, label);
  }
}
