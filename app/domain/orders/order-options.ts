import { z } from "~/lib/zod";
import { hasPlayerSlots, type ProductType } from "~/domain/catalogue/catalogue";
import { MAX_LOCATION_LENGTH } from "~/domain/settings/settings";
import {
  BACKUP_IDS,
  BILLING_CYCLE_IDS,
  DEFAULT_PLAYER_SLOTS,
  MAX_SERVER_NAME_LENGTH,
  PLAYER_SLOTS,
  type Backup,
  type BillingCycle,
} from "./orders";

/**
 * The sizes a plan's player slots are offered in below the plan's own count. The plan card promises its
 * count (150, 500, 1000), so that is the default and the largest choice; the smaller steps are for a
 * server that caps its players. Slots cost nothing (spec section 9), so the price never moves with them.
 */
export const SLOT_STEPS = [25, 50, 100, 200, 500, 1000] as const;
/** The most slots a form may ask for: anything larger is no plan's. */
export const MAX_PLAYER_SLOTS = 100_000;

/** The slot choices of a plan, smallest first, and the one the form starts on. */
export function slotChoicesFor(product: {
  type: ProductType;
  specs: { slots: number | null };
}): { choices: number[]; defaultSlots: number } | null {
  if (!hasPlayerSlots(product.type)) return null;
  const planSlots = product.specs.slots;
  // A game plan an admin saved without a count keeps the spec's old list.
  if (!planSlots || planSlots <= 0)
    return { choices: [...PLAYER_SLOTS], defaultSlots: DEFAULT_PLAYER_SLOTS };
  return {
    choices: [...SLOT_STEPS.filter((step) => step < planSlots), planSlots],
    defaultSlots: planSlots,
  };
}

/** The server locations a list of the settings allows: its first one is the form's default. */
export function isOfferedLocation(locations: readonly string[], location: string): boolean {
  return locations.includes(location);
}

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

/** The form's fields a way back to the order keeps, in the order they appear in its URL. */
const CARRIED_FIELDS = [
  "billingCycle",
  "location",
  "ddosProtection",
  "playerSlots",
  "backup",
  "serverName",
  "voucherCode",
] as const;

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

/** The order form's values from its URL, as the form fields take them (strings). */
export function prefillValues(prefill: OrderPrefill): Record<string, string> {
  const values: Record<string, string> = {};
  if (prefill.product) values.productId = String(prefill.product);
  for (const field of CARRIED_FIELDS) {
    const value = prefill[field];
    if (value !== undefined) values[field] = String(value);
  }
  return values;
}
