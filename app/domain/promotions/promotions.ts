import { labelKeys } from "~/lib/label-keys";
import { EURO_INPUT_ERRORS, eurosToCents } from "~/domain/catalogue/catalogue-admin";
import { normalizeVoucherCode, type VoucherTerms } from "~/domain/orders/orders";
import { parseEuroInput } from "~/lib/euro-input";
import { idField } from "~/lib/id-field";
import { editParam, filterParam, pageParam } from "~/lib/query-params";
import { saveActions, withSavedItem, type SavedForm } from "~/lib/save-actions";
import { customIssue, z } from "~/lib/zod";

// Vouchers (spec section 3) as the admin manages them on /admin/promotions. Orders apply them
// (evaluateVoucher in orders.ts); messages are catalogue keys ("admin-catalogue.…").

/** What a voucher is, seen at one moment, in the order evaluateVoucher checks it. */

// Catalogue keys (admin-catalogue namespace), one family a set of values (docs/i18n.md, ADR 26).
export const VOUCHER_STATUSES = ["active", "inactive", "scheduled", "expired", "usedUp"] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];
export const VOUCHER_STATUS_LABELS = labelKeys(
  "admin-catalogue",
  "promotions.statuses",
  VOUCHER_STATUSES,
);
export const DISCOUNT_TYPES = ["percentage", "fixed"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];
export const DISCOUNT_TYPE_LABELS = labelKeys(
  "admin-catalogue",
  "promotions.discountTypes",
  DISCOUNT_TYPES,
);

export const MIN_CODE_LENGTH = 3;
/** The order form accepts codes of up to 40 characters. */
export const MAX_CODE_LENGTH = 40;
/** Letters, digits, hyphens and underscores, stored upper-case: the order form upper-cases what it gets. */
export const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]*$/;
export const MAX_VOUCHER_DESCRIPTION_LENGTH = 200;
export const MAX_USES_LIMIT = 1_000_000;
/** Typo guards, not business limits. */
export const MAX_FIXED_DISCOUNT_CENTS = 1_000_000;
export const MAX_MIN_PURCHASE_CENTS = 10_000_000;
export const VOUCHERS_PAGE_SIZE = 25;
/** How many of a voucher's latest orders the list links to. */
export const RECENT_ORDERS_PER_VOUCHER = 5;

/**
 * A voucher's stored applicable-products column: "all" (the column's default, written as the JSON string
 * "all"), or the ids of the products it applies to. Anything else, unreadable or JSON that is neither
 * (a damaged or hand-edited row), applies to nothing: it never turns a voucher into one for everything.
 */
export function parseApplicable(raw: string): "all" | number[] {
  try {
    const value: unknown = JSON.parse(raw);
    if (Array.isArray(value)) return value.map(Number).filter(Number.isSafeInteger);
    if (value === "all") return "all";
  } catch {
    // unreadable: applies to nothing
  }
  return [];
}

/**
 * A voucher's status now, checked in the same order as evaluateVoucher: switched off, not started,
 * past its end, out of uses, else active.
 */
export function voucherStatus(
  voucher: Pick<VoucherTerms, "isActive" | "validFrom" | "validUntil" | "usedCount" | "maxUses">,
  now: Date,
): VoucherStatus {
  const at = now.getTime();
  if (!voucher.isActive) return "inactive";
  if (at < Date.parse(voucher.validFrom)) return "scheduled";
  if (at > Date.parse(voucher.validUntil)) return "expired";
  if (voucher.usedCount >= voucher.maxUses) return "usedUp";
  return "active";
}

/** A voucher's window is whole days in UTC: from the start of its first day to the end of its last. */
export function startOfDay(day: string): string {
  return `${day}T00:00:00.000Z`;
}
export function endOfDay(day: string): string {
  return `${day}T23:59:59.999Z`;
}
/** The UTC day of a timestamp, as a date field shows it. */
export function dayOf(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

const day = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .refine((value) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
      const time = Date.parse(startOfDay(value));
      const year = Number(value.slice(0, 4));
      // A real calendar day (no 31 February) in a sensible range.
      return (
        !Number.isNaN(time) &&
        new Date(time).toISOString().slice(0, 10) === value &&
        year >= 2000 &&
        year <= 2100
      );
    }, "admin-catalogue.promotions.errors.dateInvalid");

const euros = (max: number, options: { allowZero: boolean }) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = (value ?? "").trim();
      if (text === "" && options.allowZero) return 0;
      const zeroError = options.allowZero ? null : "admin-catalogue.promotions.errors.discountZero";
      return eurosToCents(text, max, zeroError, ctx);
    });

export const voucherIdSchema = idField("admin-catalogue.promotions.errors.notFound");

const voucherFieldShape = {
  code: z
    .string({ error: "admin-catalogue.promotions.errors.codeRequired" })
    .transform(normalizeVoucherCode)
    .refine((value) => value !== "", "admin-catalogue.promotions.errors.codeRequired")
    .refine(
      (value) =>
        value === "" ||
        (value.length >= MIN_CODE_LENGTH &&
          value.length <= MAX_CODE_LENGTH &&
          CODE_PATTERN.test(value)),
      "admin-catalogue.promotions.errors.codeInvalid",
    ),
  description: z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim())
    .refine(
      (value) => value.length <= MAX_VOUCHER_DESCRIPTION_LENGTH,
      "admin-catalogue.promotions.errors.descriptionTooLong",
    ),
  discountType: z.enum(DISCOUNT_TYPES, "admin-catalogue.promotions.errors.discountTypeInvalid"),
  // Read by the type (a whole percent, or euros) in the check below.
  discountValue: z
    .string({ error: "admin-catalogue.promotions.errors.discountRequired" })
    .trim()
    .min(1, "admin-catalogue.promotions.errors.discountRequired"),
  minPurchase: euros(MAX_MIN_PURCHASE_CENTS, { allowZero: true }),
  maxUses: z
    .string({ error: "admin-catalogue.promotions.errors.maxUsesInvalid" })
    .trim()
    .refine(
      (value) => /^\d{1,9}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_USES_LIMIT,
      "admin-catalogue.promotions.errors.maxUsesInvalid",
    )
    .transform(Number),
  validFrom: day("admin-catalogue.promotions.errors.dateRequired"),
  validUntil: day("admin-catalogue.promotions.errors.dateRequired"),
  appliesTo: z.enum(["all", "selected"], "admin-catalogue.promotions.errors.appliesToInvalid"),
  /** Filled from the form's product-<id> checkboxes (see voucherActionSchema). */
  products: z.array(z.number()).default([]),
};

type VoucherFields = {
  discountType: DiscountType;
  discountValue: string;
  validFrom: string;
  validUntil: string;
  appliesTo: "all" | "selected";
  products: number[];
};

function checkVoucher(value: VoucherFields, ctx: z.RefinementCtx): void {
  if (value.discountType === "percentage") {
    const text = value.discountValue.replace(/\s*%$/, "");
    if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > 100)
      customIssue(ctx, "admin-catalogue.promotions.errors.percentInvalid", "discountValue");
  } else {
    const parsed = parseEuroInput(value.discountValue, MAX_FIXED_DISCOUNT_CENTS);
    if (!parsed.ok || parsed.cents === 0)
      customIssue(
        ctx,
        parsed.ok
          ? "admin-catalogue.promotions.errors.discountZero"
          : EURO_INPUT_ERRORS[parsed.error],
        "discountValue",
      );
  }
  if (value.validUntil < value.validFrom)
    customIssue(ctx, "admin-catalogue.promotions.errors.datesOrder", "validUntil");
  if (value.appliesTo === "selected" && value.products.length === 0)
    customIssue(ctx, "admin-catalogue.promotions.errors.productsRequired", "products");
}

/** What a voucher is saved from: the discount in its unit (whole percent or cents), days in UTC. */
export interface VoucherInput {
  code: string;
  description: string;
  discountType: DiscountType;
  /** Whole percent for "percentage", cents for "fixed". */
  discountValue: number;
  minPurchaseCents: number;
  maxUses: number;
  validFromDay: string;
  validUntilDay: string;
  applicableServices: "all" | number[];
}

export function voucherInputFrom(form: SavedForm<typeof voucherFieldShape>): VoucherInput {
  const discountValue =
    form.discountType === "percentage"
      ? Number(form.discountValue.replace(/\s*%$/, ""))
      : (parseEuroInput(form.discountValue, MAX_FIXED_DISCOUNT_CENTS) as { cents: number }).cents;
  return {
    code: form.code,
    description: form.description,
    discountType: form.discountType,
    discountValue,
    minPurchaseCents: form.minPurchase,
    maxUses: form.maxUses,
    validFromDay: form.validFrom,
    validUntilDay: form.validUntil,
    applicableServices:
      form.appliesTo === "all" ? "all" : [...new Set(form.products)].sort((a, b) => a - b),
  };
}

/** The checkboxes product-12, product-15 … that are ticked, as a list of product ids. */
export function checkedProducts(entries: Record<string, unknown>): number[] {
  return Object.entries(entries)
    .map(([key, value]) => {
      const match = /^product-(\d{1,10})$/.exec(key);
      return match && value !== undefined && value !== "" ? Number(match[1]) : null;
    })
    .filter((id): id is number => id !== null && Number.isSafeInteger(id) && id > 0);
}

/** The promotions page's one action, by intent. */
export const voucherActionSchema = z.preprocess(
  (value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? { ...value, products: checkedProducts(value as Record<string, unknown>) }
      : value,
  z
    .discriminatedUnion(
      "intent",
      [
        ...saveActions(voucherFieldShape, voucherIdSchema, checkVoucher),
        z.object({ intent: z.literal("deactivate"), id: voucherIdSchema }),
        z.object({ intent: z.literal("activate"), id: voucherIdSchema }),
      ],
      { error: "admin-catalogue.errors.unknownAction" },
    )
    .transform(withSavedItem("voucher", voucherInputFrom)),
);
export type VoucherAction = z.infer<typeof voucherActionSchema>;

/** A voucher in the admin's list, with the orders that used it. */
export interface AdminVoucher extends VoucherTerms {
  description: string;
  createdAt: string;
  status: VoucherStatus;
  orderCount: number;
  /** The latest few, newest first. */
  recentOrders: { id: number; status: string }[];
}

export const VOUCHER_NOTICES = ["created", "updated"] as const;
export type VoucherNotice = (typeof VOUCHER_NOTICES)[number];

/** /admin/promotions' query string: a value that does not parse is ignored, never an error. */
export const voucherListQuerySchema = z.object({
  q: z
    .string()
    .max(MAX_CODE_LENGTH)
    .transform((value) => normalizeVoucherCode(value))
    .catch(""),
  status: filterParam(VOUCHER_STATUSES),
  page: pageParam,
  edit: editParam,
  notice: filterParam(VOUCHER_NOTICES),
});
export type VoucherListQuery = z.infer<typeof voucherListQuerySchema>;
