import { customIssue, z } from "~/lib/zod";
import { MAX_VOUCHER_CODE_LENGTH } from "./collections";
import { readAmountCents, readPrice } from "./field-amounts";
import { bad, expected, field, isMissing, lenient, ok, shown, type Read } from "./field-basics";
import { readCount, readFlag, readLegacyId, readRequiredText, readText } from "./field-readers";

function readCode(value: unknown): Read<string> {
  const code = readRequiredText(value);
  if (code.ok && code.value.length > MAX_VOUCHER_CODE_LENGTH)
    return bad(`longer than ${MAX_VOUCHER_CODE_LENGTH} characters`);
  return code;
}

export const voucherSchema = z
  .object(
    {
      id: field(readLegacyId),
      code: field(readCode),
      description: field(readText),
      discountType: field(readText),
      discountValue: lenient,
      minPurchase: field((value) => readPrice(value, false)),
      maxUses: field(readCount),
      usedCount: field(readCount),
      isActive: field(readFlag),
      validFrom: lenient,
      validUntil: lenient,
      createdAt: lenient,
      applicableServices: lenient,
    },
    { error: expected("an object (a voucher)") },
  )
  .transform((voucher, ctx) => {
    const type = voucherType(voucher.discountType);
    if (!type) {
      customIssue(
        ctx,
        `${shown(voucher.discountType)} is neither percentage nor fixed`,
        "discountType",
      );
      return z.NEVER;
    }
    const discount = readDiscount(type, voucher.discountValue);
    if (!discount.ok) {
      customIssue(ctx, discount.message, "discountValue");
      return z.NEVER;
    }
    return { ...voucher, discountType: type, discountCentsOrPercent: discount.value };
  });

export type RawVoucher = z.infer<typeof voucherSchema>;

function voucherType(value: string | null): "percentage" | "fixed" | null {
  const word = (value ?? "percentage").toLowerCase();
  if (["percentage", "percent", "%", "pct"].includes(word)) return "percentage";
  if (["fixed", "amount", "flat"].includes(word)) return "fixed";
  return null;
}

/** A percentage is a whole percent from 1 to 100 ("10" or "10%"); a fixed discount is whole cents. */
function readDiscount(type: "percentage" | "fixed", value: unknown): Read<number> {
  if (isMissing(value)) return bad("required, and missing or empty");
  if (type === "fixed") {
    const cents = readAmountCents(value);
    if (!cents.ok) return cents;
    return cents.value! > 0 ? ok(cents.value!) : bad(`${shown(value)} must be more than 0`);
  }
  const n = typeof value === "string" ? Number(value.trim().replace(/%$/, "")) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 100)
    return bad(`${shown(value)} is not a whole percent from 1 to 100`);
  return ok(n);
}
