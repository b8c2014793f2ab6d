import type { Db } from "~/db/transaction";
import { listCustomerOrders } from "~/domain/orders/orders.server";
import { listCustomerServices } from "./hosting-services.server";

/** What the dashboard shows a customer: their own services and orders, newest first, never anyone else's. */
export async function loadCustomerDashboard(db: Db, userId: string) {
  const [services, orders] = await Promise.all([
    listCustomerServices(db, userId, { limit: 50, offset: 0 }),
    listCustomerOrders(db, userId, { limit: 20, offset: 0 }),
  ]);
  return { services, orders };
}
