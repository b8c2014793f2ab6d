import type { Selectable } from "kysely";
import type { HostingServicesTable } from "~/db/schema";
import type { Tx } from "~/db/transaction";

// Not in customer-services.server.ts, beside setAutoRenew: the refund's step (renewal-refund.server.ts)
// needs this step alone, not the service's use-cases and what they import.

/**
 * Step: the customer's automatic renewal of one of their services switched on or off, only when it is
 * not so already (the condition is in the update itself: on PostgreSQL a request committed since the
 * caller read the row counts). With `exceptTerminated`, a terminated service's switch is left as it is
 * (it never renews again). The service as it is now when it changed; null when nothing did: the switch
 * was so already, or the service is not the customer's, gone, or left alone for being terminated.
 */
export async function switchAutoRenew(
  trx: Tx,
  input: {
    serviceId: number;
    userId: string;
    on: boolean;
    exceptTerminated?: boolean;
    now?: Date;
  },
): Promise<Selectable<HostingServicesTable> | null> {
  let update = trx
    .updateTable("hosting_services")
    .set({ auto_renew: input.on ? 1 : 0, updated_at: (input.now ?? new Date()).toISOString() })
    .where("id", "=", input.serviceId)
    .where("user_id", "=", input.userId)
    .where("auto_renew", "=", input.on ? 0 : 1);
  if (input.exceptTerminated) update = update.where("status", "!=", "terminated");
  return (await update.returningAll().executeTakeFirst()) ?? null;
}
