import { describe, expect, it } from "vitest";
import { BILLING_CYCLE_IDS, BACKUP_IDS, quote } from "./orders";
import { documentAmounts } from "~/domain/invoices/invoices";
import { orderSummary, type SummaryLine } from "./order-summary";

const amounts = (lines: SummaryLine[]) =>
  Object.fromEntries(lines.map((line) => [line.kind, line.amountCents]));

/** The total line's amount, and what the lines above it add up to (the monthly price is only shown). */
function totalAndSum(lines: SummaryLine[]) {
  const total = lines.find((line) => line.kind === "total")!.amountCents;
  const sum = lines
    .filter((line) => line.kind !== "total" && line.kind !== "monthly")
    .reduce((cents, line) => cents + line.amountCents, 0);
  return { total, sum };
}

/** A worked example: a €4.50 plan for a quarter, no backup. */
const quarter = { productPriceCents: 450, cycle: "quarterly", backup: "none" } as const;

describe("orderSummary", () => {
  it("writes out a quarter: €4.50 × 3 months, 5% off, total €12.82", () => {
    const summary = orderSummary(quarter);
    expect(summary.lines).toEqual([
      { kind: "monthly", amountCents: 450 },
      { kind: "period", monthlyCents: 450, months: 3, amountCents: 1350 },
      { kind: "cycleDiscount", percent: 5, amountCents: -68 },
      { kind: "setupFee", amountCents: 0 },
      { kind: "total", amountCents: 1282 },
    ]);
  });

  it("shows a voucher as a line of its own, taken off after the cycle's discount", () => {
    // (450 + 200) × 3 = 1950; 5% off = 98 → 1852; WELCOME10 gives 10% of 1852 = 185.
    const summary = orderSummary({
      ...quarter,
      backup: "premium",
      voucher: { code: "WELCOME10", discountCents: 185 },
    });
    expect(amounts(summary.lines)).toEqual({
      monthly: 650,
      period: 1950,
      cycleDiscount: -98,
      voucher: -185,
      setupFee: 0,
      total: 1667,
    });
    expect(summary.lines.find((line) => line.kind === "voucher")).toMatchObject({
      code: "WELCOME10",
    });
  });

  it("leaves out the discount line of a monthly cycle and the line of a voucher worth nothing", () => {
    const summary = orderSummary({
      productPriceCents: 1200,
      cycle: "monthly",
      backup: "choliba",
      voucher: { code: "ZERO", discountCents: 0 },
    });
    expect(summary.lines.map((line) => line.kind)).toEqual([
      "monthly",
      "period",
      "setupFee",
      "total",
    ]);
  });

  it("adds up for every plan price, cycle, backup and voucher: period − discounts + fee = total", () => {
    for (const price of [0, 1, 250, 399, 450, 799, 1499, 2000, 99_999])
      for (const cycle of BILLING_CYCLE_IDS)
        for (const backup of BACKUP_IDS)
          for (const discount of [0, 1, 77, 500, 1_000_000]) {
            const summary = orderSummary({
              productPriceCents: price,
              cycle,
              backup,
              voucher: { code: "X", discountCents: discount },
            });
            const lines = summary.lines;
            const { total, sum } = totalAndSum(lines);
            const what = `${price} ${cycle} ${backup} ${discount}`;
            expect(sum, what).toBe(total);
            // The total is what the server charges (the same quote).
            expect(total, what).toBe(
              quote({ productPriceCents: price, cycle, backup }, discount).totalCents,
            );
            const period = lines.find((line) => line.kind === "period");
            expect(period?.kind === "period" && period.monthlyCents * period.months, what).toBe(
              period?.amountCents,
            );
            expect(total, what).toBeGreaterThanOrEqual(0);
          }
  });

  it("adds the VAT of prices that exclude it, with the invoice's rounding, and charges that total", () => {
    // The quarter's €12.82 at Morocco's 20%: 256.4 cents of VAT rounds to 256, total €15.38.
    const moroccan = { rateBp: 2000, pricesIncludeVat: false };
    const summary = orderSummary({ ...quarter, vat: moroccan, balanceCents: 1500 });
    expect(summary.lines.slice(-3)).toEqual([
      { kind: "setupFee", amountCents: 0 },
      { kind: "vat", rateBp: 2000, amountCents: 256 },
      { kind: "total", amountCents: 1538 },
    ]);
    expect(summary.amounts).toEqual(documentAmounts(1282, 2000, false));
    // The balance is compared with what is charged, VAT included.
    expect(summary).toMatchObject({ shortfallCents: 38, balanceAfterCents: null });
    expect(orderSummary({ ...quarter, vat: moroccan, balanceCents: 1538 })).toMatchObject({
      shortfallCents: 0,
      balanceAfterCents: 0,
    });
    // Prices that include VAT, a country without a rate, a visitor: no line, the price is the total.
    for (const vat of [
      { rateBp: 2000, pricesIncludeVat: true },
      { rateBp: 0, pricesIncludeVat: false },
      null,
    ]) {
      const lines = orderSummary({ ...quarter, vat }).lines;
      expect(lines.map((line) => line.kind)).not.toContain("vat");
      expect(lines.at(-1)).toEqual({ kind: "total", amountCents: 1282 });
    }
    // Included, the VAT inside the total is the invoice's: round(1282 × 2000 / 12000) = 214.
    expect(
      orderSummary({ ...quarter, vat: { rateBp: 2000, pricesIncludeVat: true } }).amounts,
    ).toMatchObject({ vatCents: 214, subtotalCents: 1068, totalCents: 1282 });
  });

  it("adds up with VAT too, to what the invoice charges, for every price, cycle and rate", () => {
    for (const price of [0, 1, 250, 399, 450, 1499, 99_999])
      for (const cycle of BILLING_CYCLE_IDS)
        for (const rateBp of [0, 550, 1000, 2000, 2100])
          for (const discount of [0, 77]) {
            const vat = { rateBp, pricesIncludeVat: false };
            const summary = orderSummary({
              productPriceCents: price,
              cycle,
              backup: "premium",
              voucher: { code: "X", discountCents: discount },
              vat,
            });
            const { total, sum } = totalAndSum(summary.lines);
            const what = `${price} ${cycle} ${rateBp} ${discount}`;
            expect(sum, what).toBe(total);
            const priced = quote({ productPriceCents: price, cycle, backup: "premium" }, discount);
            expect(total, what).toBe(documentAmounts(priced.totalCents, rateBp, false).totalCents);
          }
  });

  it("says what the balance lacks, or what it keeps after paying", () => {
    expect(orderSummary({ ...quarter, balanceCents: 200 })).toMatchObject({
      shortfallCents: 1082,
      balanceAfterCents: null,
    });
    expect(orderSummary({ ...quarter, balanceCents: 1282 })).toMatchObject({
      shortfallCents: 0,
      balanceAfterCents: 0,
    });
    expect(orderSummary({ ...quarter, balanceCents: 5000 })).toMatchObject({
      shortfallCents: 0,
      balanceAfterCents: 3718,
    });
    // A visitor has no balance: nothing is said about it.
    expect(orderSummary(quarter)).toMatchObject({ shortfallCents: null, balanceAfterCents: null });
  });

  it("says nothing of the balance when none is given, and prices include VAT unless told", () => {
    const summary = orderSummary(quarter);
    expect(summary.shortfallCents).toBeNull();
    expect(summary.balanceAfterCents).toBeNull();
    expect(summary.amounts.pricesIncludeVat).toBe(true);
    expect(orderSummary({ ...quarter, balanceCents: 1282 }).balanceAfterCents).toBe(0);
    // A free order (a voucher for all of it) with no balance given: still nothing said of one.
    const free = orderSummary({ ...quarter, voucher: { code: "ALL", discountCents: 1282 } });
    expect(free.lines.at(-1)).toEqual({ kind: "total", amountCents: 0 });
    expect(free.balanceAfterCents).toBeNull();
    expect(orderSummary({ ...quarter, balanceCents: 1281 })).toMatchObject({
      balanceAfterCents: null,
      shortfallCents: 1,
    });
  });
});
