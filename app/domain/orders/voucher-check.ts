import type { VoucherError } from "./orders";

export type { VoucherCheckQuery } from "./voucher-check.schemas";

/** The path the order form asks while a voucher code is typed (app/routes/order-voucher.ts). */
export const VOUCHER_CHECK_PATH = "/order/voucher";

export type VoucherCheckResult =
  | { ok: true; code: string; discountCents: number; totalCents: number }
  | { ok: false; kind: "notFound"; error: "orders.errors.serviceNotFound" }
  | { ok: false; kind: "invalid"; error: VoucherError; minPurchaseCents?: number }
  | { ok: false; kind: "limited"; error: "orders.errors.voucherCheckLimited" };

/** Checks a customer may make in a minute: enough to type and retype a code, too few to guess codes. */
export const VOUCHER_CHECKS_PER_MINUTE = 20;

/**
 * A count of checks per key (a customer) in fixed one-minute windows, kept in the process: a check is one
 * indexed read, and a limit that costs no write keeps it cheap. Each server process counts on its own (ADR
 * 14), so the real ceiling is this times the processes; the order itself still checks the code.
 */
export class VoucherCheckLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute = VOUCHER_CHECKS_PER_MINUTE,
    private readonly maxKeys = 10_000,
  ) {}

  /** Counts one check; false when the key has used its checks of this minute. */
  take(key: string, now = Date.now()): boolean {
    const window = this.windows.get(key);
    if (!window || now - window.start >= 60_000) {
      // Bounded: a flood of keys empties the map rather than growing it.
      if (!window && this.windows.size >= this.maxKeys) this.windows.clear();
      this.windows.set(key, { start: now, count: 1 });
      return true;
    }
    if (window.count >= this.perMinute) return false;
    window.count += 1;
    return true;
  }
}
