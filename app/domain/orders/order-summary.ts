import { BILLING_CYCLES, quote, type Backup, type BillingCycle, type PriceQuote } from "./orders";

/** One line of the order summary; amounts in cents, a deduction negative. */
export type SummaryLine =
  | { kind: "monthly"; amountCents: number }
  /** The month's price times the cycle's months: "€4.50 × 3 months". */
  | { kind: "period"; monthlyCents: number; months: number; amountCents: number }
  | { kind: "cycleDiscount"; percent: number; amountCents: number }
  | { kind: "voucher"; code: string; amountCents: number }
  | { kind: "setupFee"; amountCents: number }
  | { kind: "total"; amountCents: number };

export interface OrderSummary {
  lines: SummaryLine[];
  price: PriceQuote;
  /** What the balance lacks for the total, 0 when it is enough; null without a balance (a visitor). */
  shortfallCents: number | null;
  /** The balance after paying, when it is enough. */
  balanceAfterCents: number | null;
}

/**
 * The order summary as lines that add up: the month's price, that price times the cycle's months, the
 * cycle's discount and the voucher's taken off, the setup fee, the total. It is `quote`, the function the
 * server charges with, written out; the lines from "period" on sum to the total.
 */
export function orderSummary(input: {
  productPriceCents: number;
  cycle: BillingCycle;
  backup: Backup;
  /** A voucher the server found valid for this plan and cycle, with its discount. */
  voucher?: { code: string; discountCents: number } | null;
  balanceCents?: number | null;
}): OrderSummary {
  const price = quote(
    { productPriceCents: input.productPriceCents, cycle: input.cycle, backup: input.backup },
    input.voucher?.discountCents ?? 0,
  );
  const { months, discountPercent } = BILLING_CYCLES[input.cycle];
  const lines: SummaryLine[] = [
    { kind: "monthly", amountCents: price.monthlyCents },
    {
      kind: "period",
      monthlyCents: price.monthlyCents,
      months,
      amountCents: price.undiscountedCents,
    },
  ];
  if (price.cycleDiscountCents > 0)
    lines.push({
      kind: "cycleDiscount",
      percent: discountPercent,
      amountCents: -price.cycleDiscountCents,
    });
  if (input.voucher && price.voucherDiscountCents > 0)
    lines.push({
      kind: "voucher",
      code: input.voucher.code,
      amountCents: -price.voucherDiscountCents,
    });
  lines.push({ kind: "setupFee", amountCents: price.setupFeeCents });
  lines.push({ kind: "total", amountCents: price.totalCents });
  const balance = input.balanceCents ?? null;
  return {
    lines,
    price,
    shortfallCents: balance === null ? null : Math.max(0, price.totalCents - balance),
    balanceAfterCents:
      balance === null || balance < price.totalCents ? null : balance - price.totalCents,
  };
}
