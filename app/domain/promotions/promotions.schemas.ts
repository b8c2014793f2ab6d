import { EURO_INPUT_ERRORS } from "~/domain/catalogue/catalogue-admin";
import { eurosToCents } from "~/domain/catalogue/catalogue-admin.schemas";
import { normalizeVoucherCode } from "~/domain/orders/orders";
import { parseEuroInput } from "~/lib/euro-input";
import { idField } from "~/lib/id-field";
import { editParam, filterParam, pageParam } from "~/lib/query-params";
import { editorActionSchema, rowActions, saveActions, type SavedForm } from "~/lib/save-actions";
import { customIssue, withFormField, z } from "~/lib/zod";
import {
  checkedProducts,
  CODE_PATTERN,
  DISCOUNT_TYPES,
  MAX_CODE_LENGTH,
  MAX_FIXED_DISCOUNT_CENTS,
  MAX_MIN_PURCHASE_CENTS,
  MAX_USES_LIMIT,
  MAX_VOUCHER_DESCRIPTION_LENGTH,
  MIN_CODE_LENGTH,
  startOfDay,
  VOUCHER_NOTICES,
  VOUCHER_STATUSES,
  type DiscountType,
  type VoucherInput,
} from "./promotions";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

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

/** The promotions page's one action, by intent. */
export const voucherActionSchema = withFormField(
  "products",
  checkedProducts,
  editorActionSchema("voucher", voucherInputFrom, "admin-catalogue.errors.unknownAction", [
    ...saveActions(voucherFieldShape, voucherIdSchema, checkVoucher),
    ...rowActions(voucherIdSchema, ["deactivate", "activate"]),
  ]),
);
export type VoucherAction = z.infer<typeof voucherActionSchema>;

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
