import { normalizeVoucherCode } from "~/domain/orders/orders";
import { keepFirst, type Building } from "./build-context";
import { DEFAULT_VOUCHER_USES } from "./collections";
import { readLegacyDate } from "./field-loose";
import { recordsOf, type SourcedRecord } from "./file-sources";
import { lower } from "./map-values";
import type { RawVoucher } from "./schema-voucher";

/** Vouchers, by code; one used more often than it may be comes in as used up (noted). */
export function buildVouchers(b: Building) {
  const vouchers = new Map<string, SourcedRecord<RawVoucher>>();
  for (const entry of recordsOf<RawVoucher>(b.sources, "vouchers")) {
    const voucher = entry.record;
    const code = normalizeVoucherCode(voucher.code);
    if (!keepFirst(b, "vouchers", vouchers, entry, code, code)) continue;
    const maxUses = voucher.maxUses ?? DEFAULT_VOUCHER_USES;
    const used = voucher.usedCount ?? 0;
    if (used > maxUses)
      b.data.notes.push({
        collection: "vouchers",
        ref: entry.ref,
        label: code,
        note: { code: "usedCountClamped", fromCount: used },
      });
    b.data.vouchers.push({
      ref: entry.ref,
      key: code,
      code,
      description: (voucher.description ?? "").slice(0, 500),
      discountType: voucher.discountType,
      discountValue: voucher.discountCentsOrPercent,
      minPurchaseCents: voucher.minPurchase ?? 0,
      maxUses,
      usedCount: Math.min(used, maxUses),
      isActive: voucher.isActive ?? true,
      validFrom: readLegacyDate(voucher.validFrom),
      validUntil: readLegacyDate(voucher.validUntil),
      createdAt: readLegacyDate(voucher.createdAt),
      applicableServices: applicable(voucher.applicableServices),
    });
  }
}

/** The old services a voucher applies to: "all", or their ids. */
function applicable(value: unknown): "all" | string[] {
  if (value === undefined || value === null) return "all";
  if (typeof value === "string")
    return lower(value) === "all" || !value.trim() ? "all" : [value.trim()];
  if (!Array.isArray(value)) return "all";
  const ids = value
    .map((item) =>
      typeof item === "number" || typeof item === "string" ? String(item).trim() : "",
    )
    .filter(Boolean);
  return ids.length === 0 || ids.some((id) => lower(id) === "all") ? "all" : ids;
}
