import { documentAmounts, type DocumentAmounts } from "~/domain/invoices/invoices";
import { BILLING_CYCLES, quote, type Backup, type BillingCycle, type PriceQuote } from "./orders";

/** One line of the order summary; amounts in cents, a deduction negative. */
export type SummaryLine =
  | { kind: "monthly"; amountCents: number }
  /** The month's price times the cycle's months: "€4.50 × 3 months". */
  | { kind: "period"; monthlyCents: number; months: number; amountCents: number }
  | { kind: "cycleDiscount"; percent: number; amountCents: number }
  | { kind: "voucher"; code: string; amountCents: number }
  | { kind: "setupFee"; amountCents: number }
  /** The VAT added to prices that exclude it, at the rate of the customer's billing country. */
  | { kind: "vat"; rateBp: number; amountCents: number }
  /** What is charged: the price, and the VAT when it is added. */
  | { kind: "total"; amountCents: number };

/** The VAT terms of the customer's next invoice: their billing country's rate, and the setting. */
export interface OrderVat {
  rateBp: number;
  pricesIncludeVat: boolean;
}

export interface OrderSummary {
  lines: SummaryLine[];
  price: PriceQuote;
  /** The invoice's figures of the price (`documentAmounts`): `totalCents` is what is charged. */
  amounts: DocumentAmounts;
  /** What the balance lacks for the total, 0 when it is enough; null without a balance (a visitor). */
  shortfallCents: number | null;
  /** The balance after paying, when it is enough. */
  balanceAfterCents: number | null;
}

/**
 * The order summary as lines that add up: the month's price, that price times the cycle's months, the
 * cycle's discount and the voucher's taken off, the setup fee, the VAT when prices exclude it, the total.
 * It is `quote` and the invoice's `documentAmounts`, the functions the server charges with (placeOrder's
 * `amountsFor`), written out; the lines from "period" on sum to the total.
 */
export function orderSummary(input: {
  productPriceCents: number;
  cycle: BillingCycle;
  backup: Backup;
  /** A voucher the server found valid for this plan and cycle, with its discount. */
  voucher?: { code: string; discountCents: number } | null;
  balanceCents?: number | null;
  /** The customer's VAT (none: a visitor, whose country is not known). */
  vat?: OrderVat | null;
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
  const vat = input.vat ?? { rateBp: 0, pricesIncludeVat: true };
  const amounts = documentAmounts(price.totalCents, vat.rateBp, vat.pricesIncludeVat);
  if (!amounts.pricesIncludeVat && amounts.vatCents > 0)
    lines.push({ kind: "vat", rateBp: amounts.vatRateBp, amountCents: amounts.vatCents });
  const charged = amounts.totalCents;
  lines.push({ kind: "total", amountCents: charged });
  const balance = input.balanceCents ?? null;
  return {
    lines,
    price,
    amounts,
    shortfallCents: balance === null ? null : Math.max(0, charged - balance),
    balanceAfterCents: balance === null || balance < charged ? null : balance - charged,
  };
}
