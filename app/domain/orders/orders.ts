import { keysOf } from "~/lib/keys-of";
import { labelKeys } from "~/lib/label-keys";
import type { ProductType } from "~/domain/catalogue/catalogue";
import type { WaitReason } from "./order-approval";

export type { OrderFormInput } from "./orders.schemas";

/**
 * Billing cycles of the service terms (spec section 9): months billed and of service, and the discount. A
 * term is calendar months (`cycleEnd`), never a count of days.
 */
export const BILLING_CYCLES = {
  monthly: { months: 1, discountPercent: 0 },
  quarterly: { months: 3, discountPercent: 5 },
  semiannual: { months: 6, discountPercent: 10 },
  annual: { months: 12, discountPercent: 15 },
} as const;
export type BillingCycle = keyof typeof BILLING_CYCLES;
export const BILLING_CYCLE_IDS = keysOf(BILLING_CYCLES);

export const PLAYER_SLOTS = [25, 50, 100, 200] as const;
export const DEFAULT_PLAYER_SLOTS = 50;
export const BACKUPS = { choliba: 0, premium: 200, none: 0 } as const;
export type Backup = keyof typeof BACKUPS;
export const BACKUP_IDS = keysOf(BACKUPS);
export const SETUP_FEE_CENTS = 0;
export const MAX_SERVER_NAME_LENGTH = 64;

// Catalogue keys (orders namespace), one family a set of values (docs/i18n.md, ADR 26).
/** The order form's choice of cycle (name and discount). */
export const BILLING_CYCLE_LABELS = labelKeys("orders", "cycles", BILLING_CYCLE_IDS);
/** The cycle's name alone, in lists. */
export const BILLING_CYCLE_NAMES = labelKeys("orders", "cycleNames", BILLING_CYCLE_IDS);
/** The spec's location ids, which orders from before the settings' list (and imported ones) hold. */
export const LOCATIONS = ["germany", "usa", "uk", "france"] as const;
export type Location = (typeof LOCATIONS)[number];
export const LOCATION_LABELS = labelKeys("orders", "locations", LOCATIONS);
export const BACKUP_LABELS = labelKeys("orders", "backups", BACKUP_IDS);
export const ORDER_STATUSES = ["pending", "approved", "rejected"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_LABELS = labelKeys("orders", "status", ORDER_STATUSES);

/**
 * The same moment `months` calendar months later, in UTC: 23 Nov + 3 months = 23 Feb. A day the target
 * month lacks becomes that month's last day (31 Jan + 1 month = 28 Feb, or 29 Feb in a leap year); the
 * time of day is kept. `months` may be negative.
 */
export function addMonths(at: string | Date, months: number): string {
  const start = new Date(typeof at === "string" ? Date.parse(at) : at.getTime());
  if (Number.isNaN(start.getTime()) || !Number.isInteger(months))
    throw new RangeError(`addMonths needs a valid date and a whole number of months`);
  const monthIndex = start.getUTCMonth() + months;
  const year = start.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const end = new Date(start.getTime());
  end.setUTCFullYear(year, month, Math.min(start.getUTCDate(), daysInMonth(year, month)));
  return end.toISOString();
}

/** Days in a month (0 = January) of the Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month !== 1) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]!;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return leap ? 29 : 28;
}

/**
 * When a term of `cycle` that starts at `from` ends: the same day the cycle's months later (a month's last
 * day when it is shorter). Orders on approval, renewals and services an admin adds all run their terms by
 * this one rule.
 */
export function cycleEnd(from: string | Date, cycle: BillingCycle): string {
  return addMonths(from, BILLING_CYCLES[cycle].months);
}

/** A whole-cent share of an amount, rounded half up: never a float in money. */
export function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}

export interface VoucherTerms {
  id: number;
  code: string;
  discountType: "percentage" | "fixed";
  /** Whole percent for "percentage", cents for "fixed". */
  discountValue: number;
  minPurchaseCents: number;
  maxUses: number;
  usedCount: number;
  isActive: boolean;
  validFrom: string;
  validUntil: string;
  applicableServices: "all" | number[];
}

export type VoucherError =
  | "orders.errors.voucherNotFound"
  | "orders.errors.voucherInactive"
  | "orders.errors.voucherNotStarted"
  | "orders.errors.voucherExpired"
  | "orders.errors.voucherUsedUp"
  | "orders.errors.voucherMinimum"
  | "orders.errors.voucherNotApplicable";

/** Whether a voucher applies to an order, and its discount in cents. */
export function evaluateVoucher(
  voucher: VoucherTerms | undefined,
  order: { productId: number; subtotalCents: number; now: Date },
):
  | { ok: true; discountCents: number }
  | { ok: false; kind: "invalid"; error: VoucherError; minPurchaseCents?: number } {
  if (!voucher) return { ok: false, kind: "invalid", error: "orders.errors.voucherNotFound" };
  if (!voucher.isActive)
    return { ok: false, kind: "invalid", error: "orders.errors.voucherInactive" };
  const now = order.now.getTime();
  if (now < Date.parse(voucher.validFrom))
    return { ok: false, kind: "invalid", error: "orders.errors.voucherNotStarted" };
  if (now > Date.parse(voucher.validUntil))
    return { ok: false, kind: "invalid", error: "orders.errors.voucherExpired" };
  if (voucher.usedCount >= voucher.maxUses)
    return { ok: false, kind: "invalid", error: "orders.errors.voucherUsedUp" };
  if (
    voucher.applicableServices !== "all" &&
    !voucher.applicableServices.includes(order.productId)
  ) {
    return { ok: false, kind: "invalid", error: "orders.errors.voucherNotApplicable" };
  }
  if (order.subtotalCents < voucher.minPurchaseCents) {
    return {
      ok: false,
      kind: "invalid",
      error: "orders.errors.voucherMinimum",
      minPurchaseCents: voucher.minPurchaseCents,
    };
  }
  const raw =
    voucher.discountType === "percentage"
      ? percentOf(order.subtotalCents, Math.min(voucher.discountValue, 100))
      : voucher.discountValue;
  return { ok: true, discountCents: Math.min(raw, order.subtotalCents) };
}

export interface PriceInput {
  productPriceCents: number;
  cycle: BillingCycle;
  backup: Backup;
}

export interface PriceQuote {
  /** Plan plus paid options, for one month. */
  monthlyCents: number;
  /** months × monthly, before the cycle discount. */
  undiscountedCents: number;
  cycleDiscountCents: number;
  /** What one cycle costs; a renewal charges this. */
  subtotalCents: number;
  voucherDiscountCents: number;
  setupFeeCents: number;
  totalCents: number;
  /** The cycle's price spread over its months, for "per month" displays. */
  effectiveMonthlyCents: number;
}

/**
 * The one pricing function: the order form shows it live and the server charges it. Location, DDoS
 * protection and player slots cost nothing (spec section 9); premium backup adds €2.00 a month.
 */
export function quote(input: PriceInput, voucherDiscountCents = 0): PriceQuote {
  const { months, discountPercent } = BILLING_CYCLES[input.cycle];
  const monthlyCents = input.productPriceCents + BACKUPS[input.backup];
  const undiscountedCents = monthlyCents * months;
  const cycleDiscountCents = percentOf(undiscountedCents, discountPercent);
  const subtotalCents = undiscountedCents - cycleDiscountCents;
  const voucher = Math.max(0, Math.min(voucherDiscountCents, subtotalCents));
  const totalCents = subtotalCents - voucher + SETUP_FEE_CENTS;
  return {
    monthlyCents,
    undiscountedCents,
    cycleDiscountCents,
    subtotalCents,
    voucherDiscountCents: voucher,
    setupFeeCents: SETUP_FEE_CENTS,
    totalCents,
    effectiveMonthlyCents: Math.round(subtotalCents / months),
  };
}

export function normalizeVoucherCode(code: string): string {
  return code.trim().toUpperCase();
}

/** The order form's shown prices: "12:250,13:450" → {12: 250, 13: 450}. */
export function formatShownPrices(products: { id: number; priceCents: number }[]): string {
  return products.map((product) => `${product.id}:${product.priceCents}`).join(",");
}

export function parseShownPrices(text: string): Record<number, number> {
  const prices: Record<number, number> = {};
  for (const pair of text ? text.split(",") : []) {
    const [id, cents] = pair.split(":").map(Number);
    prices[id!] = cents!;
  }
  return prices;
}

export function playerSlotsFor(type: ProductType, slots: number): number | null {
  return type === "vps" ? null : slots;
}

export function addDays(iso: string | Date, days: number): string {
  const base = typeof iso === "string" ? Date.parse(iso) : iso.getTime();
  return new Date(base + days * 86_400_000).toISOString();
}

/** An order as the customer's and the admin's pages show it. */
export interface Order {
  id: number;
  userId: string;
  productId: number;
  productName: string;
  productType: string;
  billingCycle: BillingCycle;
  location: string;
  ddosProtection: boolean;
  playerSlots: number | null;
  backup: string;
  serverName: string;
  voucherCode: string | null;
  monthlyPriceCents: number;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  paidWithCoins: boolean;
  status: OrderStatus;
  rejectReason: string | null;
  hostingServiceId: number | null;
  createdAt: string;
  decidedAt: string | null;
  /** Why the system did not approve it as it was placed (null: it did, or it was placed before). */
  waitReason: WaitReason | null;
}

/** An order in the admin list, with who placed it. */
export interface AdminOrderView extends Order {
  userEmail: string;
  userName: string;
}
