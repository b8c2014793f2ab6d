import { customIssue, optionalNote, requiredText, z } from "~/lib/zod";
import { parseEuroInput } from "~/lib/euro-input";
import { idField } from "~/lib/id-field";
import { editParam, filterParam, pageParam, searchParam } from "~/lib/query-params";
import { SORT_DIRECTIONS } from "~/lib/sort-directions";
import { BILLING_CYCLE_IDS, type BillingCycle } from "~/domain/orders/orders";
import { PRODUCT_TYPES } from "~/domain/catalogue/catalogue";
import {
  EXPIRING_WITHIN,
  MAX_ADMIN_NOTE_LENGTH,
  MAX_SERVICE_PRICE_CENTS,
  parseExpiryDate,
  PRICE_ERRORS,
  SERVICE_SORTS,
  SERVICE_STATUSES,
} from "./hosting-services";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

export const addServiceSchema = z.object({
  userId: z.string().trim().min(1, "services.errors.required").max(100),
  name: z
    .string()
    .trim()
    .min(1, "services.errors.required")
    .max(100, "services.errors.nameTooLong"),
  price: z
    .string()
    .optional()
    .transform((value, ctx) => {
      // Blank: the chosen product's price (0 without a product). Otherwise read as the edit reads it,
      // each refusal with its own message ("cannot be negative", not "must be a number").
      if (!value || !value.trim()) return undefined;
      const parsed = parseEuroInput(value, MAX_SERVICE_PRICE_CENTS);
      if (!parsed.ok) {
        customIssue(ctx, PRICE_ERRORS[parsed.error]);
        return z.NEVER;
      }
      return parsed.cents;
    }),
  productId: z
    .string()
    .optional()
    .transform((value) => (value && /^\d+$/.test(value) ? Number(value) : undefined)),
  serverName: z.string().trim().max(64).optional().default(""),
  billingCycle: z.enum(BILLING_CYCLE_IDS as [BillingCycle, ...BillingCycle[]]).default("monthly"),
});

/** /admin/services' query string: a value that does not parse is ignored, never an error. */
export const serviceListQuerySchema = z.object({
  q: searchParam,
  status: filterParam(SERVICE_STATUSES),
  type: filterParam(PRODUCT_TYPES),
  within: filterParam(EXPIRING_WITHIN),
  sort: z.enum(SERVICE_SORTS).catch("created"),
  dir: z.enum(SORT_DIRECTIONS).catch("desc"),
  page: pageParam,
  /** The service whose edit form the page shows. */
  edit: editParam,
});
export type ServiceListQuery = z.infer<typeof serviceListQuerySchema>;

/** The edit of one service by an admin: name, price per cycle (euros), expiry date and a note. */
export const editServiceSchema = z.object({
  serviceId: idField("services.errors.notFound"),
  name: requiredText("services.errors.nameRequired", 100, "services.errors.nameTooLong"),
  price: z.string({ error: PRICE_ERRORS.required }).transform((value, ctx) => {
    const parsed = parseEuroInput(value, MAX_SERVICE_PRICE_CENTS);
    if (!parsed.ok) {
      customIssue(ctx, PRICE_ERRORS[parsed.error]);
      return z.NEVER;
    }
    return parsed.cents;
  }),
  expiresOn: z.string({ error: "services.errors.expiryInvalid" }).transform((value, ctx) => {
    const date = parseExpiryDate(value);
    if (!date) {
      customIssue(ctx, "services.errors.expiryInvalid");
      return z.NEVER;
    }
    return date;
  }),
  adminNote: optionalNote(MAX_ADMIN_NOTE_LENGTH, "services.errors.noteTooLong"),
});
export type EditServiceInput = z.infer<typeof editServiceSchema>;

export const serviceActionSchema = z.discriminatedUnion("intent", [
  addServiceSchema.extend({ intent: z.literal("add") }),
  editServiceSchema.extend({ intent: z.literal("edit") }),
  z.object({
    intent: z.enum(["suspend", "reactivate", "terminate", "delete"]),
    serviceId: z.coerce.number().int().positive(),
  }),
]);

export const renewSchema = z.object({
  serviceId: z.coerce.number().int().positive(),
  idempotencyKey: z.string().trim().min(16).max(100),
  /**
   * The price the confirmation showed, in cents: a renewal whose price changed since is refused. A form
   * without it (an older page) is charged the price as it is.
   */
  shownPrice: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
});

/** The dashboard's automatic-renewal switch of one service: "on" or "off". */
export const autoRenewSchema = z.object({
  intent: z.literal("auto-renew"),
  serviceId: z.coerce.number().int().positive(),
  autoRenew: z.enum(["on", "off"]).transform((value) => value === "on"),
});
