import { labelKeys } from "~/lib/label-keys";
import type { VoucherTerms } from "~/domain/orders/orders";

export type { VoucherAction, VoucherListQuery } from "./promotions.schemas";

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
/**
 * Whether a last day has ended: a voucher saved with it could serve no order, so a save that sets one is
 * refused (a voucher that has simply run out keeps its day through any other change).
 */
export function lastDayPassed(day: string, now: Date): boolean {
  return Date.parse(endOfDay(day)) < now.getTime();
}

/** The UTC day of a timestamp, as a date field shows it. */
export function dayOf(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
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

/** The checkboxes product-12, product-15 … that are ticked, as a list of product ids. */
export function checkedProducts(entries: Record<string, unknown>): number[] {
  return Object.entries(entries)
    .map(([key, value]) => {
      const match = /^product-(\d{1,10})$/.exec(key);
      return match && value !== undefined && value !== "" ? Number(match[1]) : null;
    })
    .filter((id): id is number => id !== null && Number.isSafeInteger(id) && id > 0);
}

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
