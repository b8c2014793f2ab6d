import { hasPlayerSlots, type ProductType } from "~/domain/catalogue/catalogue";
import type { OrderPrefill } from "./order-options.schemas";
import { DEFAULT_PLAYER_SLOTS, PLAYER_SLOTS } from "./orders";

export type { OrderPrefill } from "./order-options.schemas";

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

/** The form's fields a way back to the order keeps, in the order they appear in its URL. */
export const CARRIED_FIELDS = [
  "billingCycle",
  "location",
  "ddosProtection",
  "playerSlots",
  "backup",
  "serverName",
  "voucherCode",
] as const;

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
