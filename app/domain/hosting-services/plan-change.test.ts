import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NO_VAT, type VatTerms } from "~/domain/invoices/invoices";
import {
  addMonths,
  BILLING_CYCLE_IDS,
  BILLING_CYCLES,
  type BillingCycle,
} from "~/domain/orders/orders";
import {
  canChangePlan,
  changedPrices,
  planChangeQuote,
  planCyclePriceCents,
  proratedCents,
  termShare,
  type PlanOfChange,
} from "./plan-change";

const DAY = 86_400_000;
const limits = { ramGb: 1, storageGb: 10, cpuCores: 1, slots: 50 };
const plan = (productId: number, priceCents: number): PlanOfChange => ({
  productId,
  name: `Plan ${productId}`,
  priceCents,
  limits,
});

/** A service on `from`, bought with its options (`extraCents` a month more), expiring at `expiresAt`. */
function serviceOn(from: PlanOfChange, cycle: BillingCycle, expiresAt: string, extraCents = 0) {
  return {
    id: 1,
    serverName: "Alpha",
    billingCycle: cycle,
    cyclePriceCents: planCyclePriceCents(from.priceCents + extraCents, cycle),
    monthlyPriceCents: from.priceCents + extraCents,
    expiresAt,
  };
}

describe("a change of plan's price", () => {
  it("prices a plan's cycle as the order form does, and moves the service's prices by the difference", () => {
    // €4.50 a month, a quarter at 5% off: 1350 - 68 (half a cent up).
    expect(planCyclePriceCents(450, "quarterly")).toBe(1282);
    expect(planCyclePriceCents(250, "monthly")).toBe(250);
    const prices = changedPrices(
      { cyclePriceCents: 1282 + 570, monthlyPriceCents: 650, billingCycle: "quarterly" },
      { priceCents: 450 },
      { priceCents: 850 },
    );
    // The options the service was bought with stay: only the plans' difference is added.
    expect(prices).toEqual({
      newCyclePriceCents: 1852 + planCyclePriceCents(850, "quarterly") - 1282,
      newMonthlyPriceCents: 1050,
      differenceCents: planCyclePriceCents(850, "quarterly") - 1282,
    });
  });

  it("charges the difference for the share of the term left, rounded down, half a term half the price", () => {
    const expiresAt = "2031-04-01T12:00:00.000Z";
    // March has 31 days: the term runs from 1 March; fifteen and a half days left is half of it.
    const now = new Date(Date.parse(expiresAt) - 15.5 * DAY);
    expect(termShare(expiresAt, "monthly", now)).toEqual({
      wholeTerms: 0,
      leftMs: 15.5 * DAY,
      termMs: 31 * DAY,
    });
    const quote = planChangeQuote({
      service: serviceOn(plan(1, 250), "monthly", expiresAt),
      from: plan(1, 250),
      to: plan(2, 851),
      balanceCents: 1_000,
      vat: NO_VAT,
      now,
    });
    expect(quote).toMatchObject({
      direction: "upgrade",
      newCyclePriceCents: 851,
      priceCents: 300, // 601 / 2 = 300.5, the half cent in the customer's favour
      amountCents: 300,
      balanceAfterCents: 700,
      missingCents: 0,
    });
    // The credit of the way down is the same amount, rounded the same way.
    const down = planChangeQuote({
      service: serviceOn(plan(2, 851), "monthly", expiresAt),
      from: plan(2, 851),
      to: plan(1, 250),
      balanceCents: 1_000,
      vat: NO_VAT,
      now,
    });
    expect(down).toMatchObject({
      direction: "downgrade",
      amountCents: 300,
      balanceAfterCents: 1_300,
    });
  });

  it("adds the VAT as a renewal does, and says what a short balance lacks", () => {
    const expiresAt = "2031-04-01T12:00:00.000Z";
    const vat: VatTerms = { rateBp: 2000, pricesIncludeVat: false };
    const quote = planChangeQuote({
      service: serviceOn(plan(1, 250), "monthly", expiresAt),
      from: plan(1, 250),
      to: plan(2, 850),
      balanceCents: 100,
      vat,
      now: new Date(Date.parse(expiresAt) - 31 * DAY),
    });
    expect(quote.amounts).toMatchObject({ subtotalCents: 600, vatCents: 120, totalCents: 720 });
    expect(quote).toMatchObject({ amountCents: 720, missingCents: 620, balanceAfterCents: null });
  });

  it("changes each term a service was renewed ahead for, and nothing once it expired", () => {
    const expiresAt = "2031-05-01T12:00:00.000Z";
    const now = new Date(Date.parse(addMonths(expiresAt, -2)));
    // Two monthly terms paid (March's 31 days and April's 30): the whole difference twice.
    expect(termShare(expiresAt, "monthly", now)).toMatchObject({ wholeTerms: 1 });
    expect(proratedCents(600, termShare(expiresAt, "monthly", now))).toBe(1_200);
    // Half of March left (15.5 of its 31 days), and April paid ahead.
    const midMarch = new Date(Date.parse("2031-03-17T00:00:00.000Z"));
    expect(proratedCents(620, termShare(expiresAt, "monthly", midMarch))).toBe(620 + 310);
    expect(proratedCents(600, termShare(expiresAt, "monthly", new Date(expiresAt)))).toBe(0);
    expect(canChangePlan("active", expiresAt, new Date(expiresAt))).toBe(false);
    expect(canChangePlan("suspended", expiresAt, now)).toBe(false);
    expect(canChangePlan("terminated", expiresAt, now)).toBe(false);
    expect(canChangePlan("active", expiresAt, now)).toBe(true);
  });

  it("stays exact where a double would not: a year's milliseconds times a large price", () => {
    const share = { wholeTerms: 0, leftMs: 31_536_000_000 - 1, termMs: 31_536_000_000 };
    // 9,999,999,999 × (term − 1) / term, exactly: 9,999,999,998.68…, down to …998.
    expect(proratedCents(9_999_999_999, share)).toBe(9_999_999_998);
    expect(() => proratedCents(-1, share)).toThrow(RangeError);
  });
});

/** A plan price, a month, in cents: up to €1,000. */
const price = fc.integer({ min: 1, max: 100_000 });
const cycle = fc.constantFrom(...BILLING_CYCLE_IDS);
/** An expiry between 2026 and 2035, at any millisecond. */
const expiry = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2035, 11, 31) });
const vatTerms = fc.record({
  rateBp: fc.constantFrom(0, 550, 2000, 2500),
  pricesIncludeVat: fc.boolean(),
});

describe("a change of plan's price, for any plans, cycle, moment and VAT", () => {
  /** The case: two plans, a service bought on the first with options, a moment inside its term. */
  const cases = fc
    .record({
      from: price,
      to: price,
      extra: fc.integer({ min: 0, max: 500 }),
      cycle,
      expiry,
      // Where in the term the change is made, from its first millisecond to its last.
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      vat: vatTerms,
      balance: fc.integer({ min: 0, max: 10_000_000 }),
    })
    .map((c) => {
      const expiresAt = new Date(c.expiry).toISOString();
      const termStart = Date.parse(addMonths(expiresAt, -BILLING_CYCLES[c.cycle].months));
      const now = new Date(termStart + Math.floor(c.at * (c.expiry - termStart - 1)));
      return { ...c, expiresAt, now };
    });

  it("is never negative and never more than the difference of a cycle", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const from = plan(1, c.from);
        const to = plan(2, c.to);
        const service = serviceOn(from, c.cycle, c.expiresAt, c.extra);
        const quote = planChangeQuote({
          service,
          from,
          to,
          balanceCents: c.balance,
          vat: c.vat,
          now: c.now,
        });
        const difference = Math.abs(quote.newCyclePriceCents - quote.previousCyclePriceCents);
        expect(quote.priceCents).toBeGreaterThanOrEqual(0);
        expect(quote.priceCents).toBeLessThanOrEqual(difference);
        // With its VAT too: never more than a whole cycle's difference would cost with it.
        const whole = planChangeQuote({
          service,
          from,
          to,
          balanceCents: c.balance,
          vat: c.vat,
          now: new Date(Date.parse(addMonths(c.expiresAt, -BILLING_CYCLES[c.cycle].months))),
        });
        expect(whole.priceCents).toBe(difference);
        expect(quote.amountCents).toBeGreaterThanOrEqual(0);
        expect(quote.amountCents).toBeLessThanOrEqual(whole.amountCents);
        expect(quote.direction).toBe(c.to >= c.from ? "upgrade" : "downgrade");
      }),
      { numRuns: 2_000 },
    );
  });

  it("leaves the balance no higher after a change and the change back at the same moment", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const from = plan(1, c.from);
        const to = plan(2, c.to);
        const service = serviceOn(from, c.cycle, c.expiresAt, c.extra);
        const there = planChangeQuote({
          service,
          from,
          to,
          balanceCents: c.balance,
          vat: c.vat,
          now: c.now,
        });
        // Short of coins, the first change does not happen: nothing to undo.
        fc.pre(there.balanceAfterCents !== null);
        const back = planChangeQuote({
          service: {
            ...service,
            cyclePriceCents: there.newCyclePriceCents,
            monthlyPriceCents: there.newMonthlyPriceCents,
          },
          from: to,
          to: from,
          balanceCents: there.balanceAfterCents!,
          vat: c.vat,
          now: c.now,
        });
        // Short of coins for the way back (after a downgrade nothing is short): the balance stays.
        const after = back.balanceAfterCents ?? there.balanceAfterCents!;
        expect(after).toBeLessThanOrEqual(c.balance);
      }),
      { numRuns: 2_000 },
    );
  });
});
