import { MAX_ROW_ID } from "~/lib/id-field";
import { filterParam, pageParam } from "~/lib/query-params";
import { requiredText, ticked, z } from "~/lib/zod";
import { MAX_LOCATION_LENGTH } from "~/domain/settings/settings";
import {
  BACKUP_IDS,
  BILLING_CYCLE_IDS,
  MAX_SERVER_NAME_LENGTH,
  normalizeVoucherCode,
  ORDER_STATUSES,
  parseShownPrices,
  type Backup,
  type BillingCycle,
} from "./orders";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

const yesNo = z.enum(["yes", "no"]);

/**
 * The order form. A missing service or blank server name is the spec's 'Please fill in all required
 * fields'; the other fields have defaults, and anything outside their lists is refused.
 */
export const orderFormSchema = z.object({
  productId: z.coerce
    .number({ error: "orders.errors.required" })
    .int("orders.errors.required")
    .positive("orders.errors.required"),
  billingCycle: z
    .enum(BILLING_CYCLE_IDS as [BillingCycle, ...BillingCycle[]], "orders.errors.invalidOption")
    .default("monthly"),
  // Which locations and slot counts are offered is the settings' and the plan's: placeOrder checks them
  // (the settings' first location and the plan's slot count when none is sent).
  location: requiredText("orders.errors.invalidOption", MAX_LOCATION_LENGTH).optional(),
  ddosProtection: yesNo.default("yes"),
  // The service's automatic renewal from coins: a checkbox, ticked by default on the form;
  // unticked (or not sent) it is off.
  autoRenew: ticked(),
  playerSlots: z.coerce
    .number({ error: "orders.errors.invalidOption" })
    .int("orders.errors.invalidOption")
    .positive("orders.errors.invalidOption")
    .max(100_000, "orders.errors.invalidOption")
    .optional(),
  backup: z
    .enum(BACKUP_IDS as [Backup, ...Backup[]], "orders.errors.invalidOption")
    .default("choliba"),
  serverName: requiredText(
    "orders.errors.required",
    MAX_SERVER_NAME_LENGTH,
    "orders.errors.serverNameTooLong",
  ),
  voucherCode: z
    .string()
    .trim()
    .max(40, "orders.errors.voucherNotFound")
    .optional()
    .transform((value) => (value ? normalizeVoucherCode(value) : undefined)),
  idempotencyKey: z
    .string()
    .trim()
    .min(16, "orders.errors.expired")
    .max(100, "orders.errors.expired"),
  // The monthly prices the form showed, as "productId:cents" pairs: a price an admin changed while the
  // form was open is not charged unseen. Every plan is listed, so it holds without JavaScript whichever
  // plan is picked; optional, so a client that sends none is charged the current price.
  shownPrices: z
    .string()
    .regex(/^(?:\d{1,9}:\d{1,9}(?:,\d{1,9}:\d{1,9})*)?$/, "orders.errors.expired")
    .max(4000, "orders.errors.expired")
    .transform(parseShownPrices)
    .optional(),
  // The VAT rate the form added on top of its prices (basis points; 0 when prices include it or the
  // customer's country has none): a rate that changed since (the billing country, the settings) is not
  // charged unseen. Optional, as the prices.
  shownVatRate: z
    .string()
    .regex(/^\d{1,5}$/, "orders.errors.expired")
    .transform(Number)
    .optional(),
});
export type OrderFormInput = z.infer<typeof orderFormSchema>;

export const decideOrderSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), orderId: z.coerce.number().int().positive() }),
  z.object({
    intent: z.literal("reject"),
    orderId: z.coerce.number().int().positive(),
    reason: z
      .string({ error: "orders.errors.reasonRequired" })
      .trim()
      .min(1, "orders.errors.reasonRequired")
      .max(500),
  }),
]);

export const orderListQuerySchema = z.object({
  status: filterParam(ORDER_STATUSES),
  id: z.coerce.number().int().positive().max(MAX_ROW_ID).optional().catch(undefined),
  page: pageParam,
});
