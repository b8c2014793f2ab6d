import { z } from "~/lib/zod";
import { MAX_LOCATION_LENGTH } from "~/domain/settings/settings";
import { CARRIED_FIELDS, MAX_PLAYER_SLOTS } from "./order-options";
import {
  BACKUP_IDS,
  BILLING_CYCLE_IDS,
  MAX_SERVER_NAME_LENGTH,
  type Backup,
  type BillingCycle,
} from "./orders";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/**
 * What an order URL carries to fill the form: the plan (`product`) and the choices made before the way
 * went through login or registration. Anything unreadable is dropped, never refused: it is a link.
 */
export const orderPrefillSchema = z.object({
  product: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
  billingCycle: z
    .enum(BILLING_CYCLE_IDS as [BillingCycle, ...BillingCycle[]])
    .optional()
    .catch(undefined),
  location: z.string().trim().min(1).max(MAX_LOCATION_LENGTH).optional().catch(undefined),
  ddosProtection: z.enum(["yes", "no"]).optional().catch(undefined),
  playerSlots: z.coerce.number().int().positive().max(MAX_PLAYER_SLOTS).optional().catch(undefined),
  backup: z
    .enum(BACKUP_IDS as [Backup, ...Backup[]])
    .optional()
    .catch(undefined),
  serverName: z.string().trim().min(1).max(MAX_SERVER_NAME_LENGTH).optional().catch(undefined),
  voucherCode: z.string().trim().min(1).max(40).optional().catch(undefined),
});
export type OrderPrefill = z.infer<typeof orderPrefillSchema>;

/**
 * The order form's URL with what was chosen in it, for the way back through login and registration:
 * `/order?product=3&billingCycle=quarterly&…`. Only readable values go in (the same schema the form is
 * filled with), so the URL stays short and safe to carry.
 */
export function orderUrlWith(posted: Record<string, unknown>): string {
  const prefill = orderPrefillSchema.parse({ ...posted, product: posted.productId });
  const params = new URLSearchParams();
  if (prefill.product) params.set("product", String(prefill.product));
  for (const field of CARRIED_FIELDS) {
    const value = prefill[field];
    if (value !== undefined) params.set(field, String(value));
  }
  const query = params.toString();
  return query ? `/order?${query}` : "/order";
}
