import { addDays } from "~/domain/orders/orders";
import { DEFAULT_VOUCHER_DAYS } from "./collections";
import type { ImportVoucher } from "./dataset-types";
import { mapped, note, remember, skip, type Writing } from "./write-context.server";
import { resolveProduct, type Catalogue } from "./write-refs.server";

/** Vouchers: a code of ours is left as it is; the old services one applies to become our products. */
export async function writeVouchers(w: Writing, catalogue: Catalogue) {
  const rows = await w.trx.selectFrom("vouchers").select("code").execute();
  const codes = new Set(rows.map((v) => v.code));
  for (const voucher of w.data.vouchers) {
    if (mapped(w, "vouchers", voucher.key)) continue;
    if (codes.has(voucher.code)) {
      skip(w, "vouchers", voucher.ref, voucher.code, { code: "voucherCodeTaken" });
      continue;
    }
    const applicable = applicableProducts(w, catalogue, voucher);
    const validFrom = voucher.validFrom ?? voucher.createdAt ?? w.now;
    const row = await w.trx
      .insertInto("vouchers")
      .values({
        code: voucher.code,
        description: voucher.description,
        discount_type: voucher.discountType,
        discount_value: voucher.discountValue,
        min_purchase_cents: voucher.minPurchaseCents,
        max_uses: voucher.maxUses,
        used_count: voucher.usedCount,
        is_active: voucher.isActive ? 1 : 0,
        valid_from: validFrom,
        valid_until: voucher.validUntil ?? addDays(validFrom, DEFAULT_VOUCHER_DAYS),
        applicable_services: JSON.stringify(applicable),
        created_at: voucher.createdAt ?? w.now,
        updated_at: w.now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    codes.add(voucher.code);
    await remember(w, "vouchers", voucher.key, row.id, "created");
  }
}

/** Our products for the old services; those not found are left out (noted). */
function applicableProducts(w: Writing, catalogue: Catalogue, voucher: ImportVoucher) {
  if (voucher.applicableServices === "all") return "all";
  const ids: number[] = [];
  const dropped: string[] = [];
  for (const legacyId of voucher.applicableServices) {
    const product = resolveProduct(w, catalogue, legacyId, null);
    if (product) ids.push(product.id);
    else dropped.push(legacyId);
  }
  if (dropped.length)
    note(w, "vouchers", voucher.ref, voucher.code, { code: "servicesDropped", ids: dropped });
  return [...new Set(ids)];
}
