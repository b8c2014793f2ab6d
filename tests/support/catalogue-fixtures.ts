import { type ProductInput } from "~/domain/catalogue/catalogue-admin";
import { productActionSchema } from "~/domain/catalogue/catalogue-admin.schemas";
import { type VoucherInput } from "~/domain/promotions/promotions";
import { voucherActionSchema } from "~/domain/promotions/promotions.schemas";

let counter = 0;

/** A part of a name no other test's item has (the time, then a counter): `name`, `code`. */
export function uniqueSuffix(separator = "-"): string {
  return `${Date.now()}${separator}${counter++}`;
}

/**
 * A product as the admin's create form sends it, read by the page's own schema: `fields` over a small
 * MTA plan with a name of its own (what the catalogue's domain functions take).
 */
export function productForm(fields: Record<string, string> = {}): ProductInput {
  const parsed = productActionSchema.parse({
    intent: "create",
    name: `Test plan ${uniqueSuffix()}`,
    type: "mta",
    price: "5",
    features: "DDoS protection\nNVMe",
    ...fields,
  });
  if (parsed.intent !== "create") throw new Error("not a create");
  return parsed.product;
}

/**
 * A voucher as the admin's create form sends it, read by the page's own schema: `fields` over a 10%
 * voucher for every product, valid from 2020 to 2099, with a code of its own.
 */
export function voucherForm(fields: Record<string, string> = {}): VoucherInput {
  const parsed = voucherActionSchema.parse({
    intent: "create",
    code: `code${uniqueSuffix("x")}`,
    description: "Test",
    discountType: "percentage",
    discountValue: "10",
    minPurchase: "",
    maxUses: "100",
    validFrom: "2020-01-01",
    validUntil: "2099-12-31",
    appliesTo: "all",
    ...fields,
  });
  if (parsed.intent !== "create") throw new Error("not a create");
  return parsed.voucher;
}
