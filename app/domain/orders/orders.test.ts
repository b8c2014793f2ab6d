import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonths,
  evaluateVoucher,
  formatShownPrices,
  parseShownPrices,
  percentOf,
  playerSlotsFor,
  quote,
  type VoucherTerms,
} from "./orders";
import { decideOrderSchema, orderFormSchema, orderListQuerySchema } from "./orders.schemas";

describe("quote", () => {
  it("charges the plan plus options for each billing cycle, with the terms' discounts", () => {
    const plan = { productPriceCents: 450 };
    expect(quote({ ...plan, cycle: "monthly", backup: "choliba" }).totalCents).toBe(450);
    // 1350 − 5%: the €0.675 discount rounds half up to €0.68, in the customer's favour
    expect(quote({ ...plan, cycle: "quarterly", backup: "choliba" }).totalCents).toBe(1282);
    expect(quote({ ...plan, cycle: "semiannual", backup: "choliba" }).totalCents).toBe(2430); // 2700 − 10%
    expect(quote({ ...plan, cycle: "annual", backup: "choliba" }).totalCents).toBe(4590); // 5400 − 15%
  });

  it("adds €2.00 a month for premium backup, nothing for none", () => {
    expect(quote({ productPriceCents: 250, cycle: "monthly", backup: "premium" })).toMatchObject({
      monthlyCents: 450,
      totalCents: 450,
    });
    expect(quote({ productPriceCents: 250, cycle: "annual", backup: "premium" }).totalCents).toBe(
      4590,
    );
    expect(quote({ productPriceCents: 250, cycle: "monthly", backup: "none" }).totalCents).toBe(
      250,
    );
  });

  it("takes a voucher discount off the cycle's price, never below zero", () => {
    const q = quote({ productPriceCents: 1499, cycle: "quarterly", backup: "choliba" }, 427);
    expect(q.subtotalCents).toBe(4272); // 4497 − 225
    expect(q.totalCents).toBe(4272 - 427);
    expect(
      quote({ productPriceCents: 300, cycle: "monthly", backup: "none" }, 10_000).totalCents,
    ).toBe(0);
  });

  it("stays in whole cents for every plan, cycle and backup", () => {
    for (const price of [250, 300, 399, 450, 700, 799, 850, 950, 1200, 1499, 2000]) {
      for (const cycle of ["monthly", "quarterly", "semiannual", "annual"] as const) {
        for (const backup of ["choliba", "premium", "none"] as const) {
          const q = quote({ productPriceCents: price, cycle, backup });
          expect(Number.isInteger(q.totalCents)).toBe(true);
          expect(q.totalCents).toBe(q.undiscountedCents - q.cycleDiscountCents);
        }
      }
    }
  });

  it("rounds shares half up", () => {
    expect(percentOf(1350, 5)).toBe(68);
    expect(percentOf(999, 10)).toBe(100);
    expect(percentOf(994, 10)).toBe(99);
  });
});

describe("evaluateVoucher", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  const welcome: VoucherTerms = {
    id: 1,
    code: "WELCOME10",
    discountType: "percentage",
    discountValue: 10,
    minPurchaseCents: 500,
    maxUses: 100,
    usedCount: 0,
    isActive: true,
    validFrom: "2026-11-01T00:00:00Z",
    validUntil: "2026-12-01T00:00:00Z",
    applicableServices: "all",
  };
  const order = { productId: 7, subtotalCents: 1200, now };

  it("gives 10% of the subtotal", () => {
    expect(evaluateVoucher(welcome, order)).toEqual({ ok: true, discountCents: 120 });
  });

  it("refuses each broken condition with its own message", () => {
    const refused = (error: string) => ({ ok: false, kind: "invalid", error });
    expect(evaluateVoucher(undefined, order)).toEqual(refused("orders.errors.voucherNotFound"));
    expect(evaluateVoucher({ ...welcome, isActive: false }, order)).toEqual(
      refused("orders.errors.voucherInactive"),
    );
    expect(evaluateVoucher({ ...welcome, validFrom: "2026-12-01T00:00:00Z" }, order)).toEqual(
      refused("orders.errors.voucherNotStarted"),
    );
    expect(evaluateVoucher({ ...welcome, validUntil: "2026-11-21T00:00:00Z" }, order)).toEqual(
      refused("orders.errors.voucherExpired"),
    );
    expect(evaluateVoucher({ ...welcome, usedCount: 100 }, order)).toEqual(
      refused("orders.errors.voucherUsedUp"),
    );
    expect(evaluateVoucher({ ...welcome, applicableServices: [1, 2] }, order)).toEqual(
      refused("orders.errors.voucherNotApplicable"),
    );
    expect(evaluateVoucher(welcome, { ...order, subtotalCents: 499 })).toEqual({
      ...refused("orders.errors.voucherMinimum"),
      minPurchaseCents: 500,
    });
  });

  it("holds from its first to its last millisecond, and at exactly the minimum purchase", () => {
    const at = (iso: string) => ({ ...order, now: new Date(iso) });
    expect(evaluateVoucher(welcome, at("2026-11-01T00:00:00.000Z")).ok).toBe(true);
    expect(evaluateVoucher(welcome, at("2026-12-01T00:00:00.000Z")).ok).toBe(true);
    expect(evaluateVoucher(welcome, at("2026-12-01T00:00:00.001Z"))).toMatchObject({
      error: "orders.errors.voucherExpired",
    });
    expect(evaluateVoucher(welcome, { ...order, subtotalCents: 500 })).toEqual({
      ok: true,
      discountCents: 50,
    });
  });

  it("caps a fixed discount at the subtotal", () => {
    expect(
      evaluateVoucher(
        { ...welcome, discountType: "fixed", discountValue: 5000, minPurchaseCents: 0 },
        order,
      ),
    ).toEqual({
      ok: true,
      discountCents: 1200,
    });
  });
});

describe("orderFormSchema", () => {
  const key = "k".repeat(20);

  it("needs a service and a non-blank server name", () => {
    const result = orderFormSchema.safeParse({ serverName: "   ", idempotencyKey: key });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => i.message);
    expect(new Set(messages)).toEqual(new Set(["orders.errors.required"]));
  });

  it("fills the spec's defaults and trims the name", () => {
    const parsed = orderFormSchema.parse({
      productId: "3",
      serverName: "  My RP  ",
      idempotencyKey: key,
    });
    expect(parsed).toMatchObject({
      productId: 3,
      billingCycle: "monthly",
      ddosProtection: "yes",
      backup: "choliba",
      serverName: "My RP",
    });
    // The settings' first location and the plan's slot count are placeOrder's to fill in.
    expect(parsed.location).toBeUndefined();
    expect(parsed.playerSlots).toBeUndefined();
  });

  it("refuses values outside the lists and names over 64 characters", () => {
    // Which locations and slot counts exist is the settings' and the plan's (placeOrder); the form
    // refuses what can be neither.
    const bad = orderFormSchema.safeParse({
      productId: "3",
      serverName: "x".repeat(65),
      billingCycle: "weekly",
      location: "x".repeat(61),
      playerSlots: "7.5",
      backup: "tape",
      idempotencyKey: key,
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path[0]).sort()).toEqual([
      "backup",
      "billingCycle",
      "location",
      "playerSlots",
      "serverName",
    ]);
  });

  it("upper-cases a voucher code", () => {
    expect(
      orderFormSchema.parse({
        productId: 1,
        serverName: "a",
        voucherCode: " welcome10 ",
        idempotencyKey: key,
      }).voucherCode,
    ).toBe("WELCOME10");
  });

  it("reads the prices the form showed, and calls a tampered list a stale form", () => {
    const shown = formatShownPrices([
      { id: 12, priceCents: 250 },
      { id: 13, priceCents: 450 },
    ]);
    expect(shown).toBe("12:250,13:450");
    const parse = (shownPrices?: string) =>
      orderFormSchema.safeParse({
        productId: 12,
        serverName: "a",
        idempotencyKey: key,
        shownPrices,
      });
    expect(parse(shown).data?.shownPrices).toEqual({ 12: 250, 13: 450 });
    expect(parse(undefined).data?.shownPrices).toBeUndefined();
    expect(parse("").data?.shownPrices).toEqual({});
    for (const tampered of ["12:-5", "12:2.5", "12", "12:250,", "x:1", "12:250;13:1"]) {
      expect(parse(tampered).error?.issues[0]?.message, tampered).toBe("orders.errors.expired");
    }
  });
});

describe("the order's small helpers", () => {
  it("spreads a cycle's price over its months for the per-month display", () => {
    const annual = quote({ productPriceCents: 450, cycle: "annual", backup: "choliba" });
    // €45.90 a year is €3.825 a month, shown as €3.83.
    expect(annual.effectiveMonthlyCents).toBe(383);
    expect(quote({ productPriceCents: 450, cycle: "monthly", backup: "choliba" })).toMatchObject({
      effectiveMonthlyCents: 450,
      setupFeeCents: 0,
    });
  });

  it("refuses to add months to a date that is not one, or a part of a month", () => {
    expect(() => addMonths("not a date", 1)).toThrow(
      new RangeError("addMonths needs a valid date and a whole number of months"),
    );
    expect(() => addMonths("2026-01-31T00:00:00.000Z", 1.5)).toThrow(RangeError);
    expect(addMonths(new Date("2026-01-31T10:00:00.000Z"), 1)).toBe("2026-02-28T10:00:00.000Z");
  });

  it("adds days to a date given as text or as a Date", () => {
    expect(addDays("2026-02-28T10:00:00.000Z", 1)).toBe("2026-03-01T10:00:00.000Z");
    // A Date keeps its milliseconds (read as text, a Date would lose them).
    expect(addDays(new Date("2026-02-28T10:00:00.123Z"), -28)).toBe("2026-01-31T10:00:00.123Z");
  });

  it("reads no prices from an empty list, and gives a VPS no player slots", () => {
    expect(parseShownPrices("")).toStrictEqual({});
    expect(parseShownPrices("12:250")).toStrictEqual({ 12: 250 });
    expect(playerSlotsFor("vps", 50)).toBeNull();
    expect(playerSlotsFor("samp", 50)).toBe(50);
    expect(playerSlotsFor("mta", 40)).toBe(40);
  });
});

describe("an order form's refusals, field by field", () => {
  const form = { productId: "3", serverName: "My RP", idempotencyKey: "k".repeat(20) };
  const message = (fields: Record<string, unknown>) =>
    orderFormSchema.safeParse({ ...form, ...fields }).error?.issues[0]?.message;

  it("says what is wrong with each field in that field's message", () => {
    const stale = "orders.errors.expired";
    const cases: [Record<string, unknown>, string][] = [
      [{ productId: "abc" }, "orders.errors.required"],
      [{ billingCycle: "weekly" }, "orders.errors.invalidOption"],
      [{ location: "   " }, "orders.errors.invalidOption"],
      [{ location: "x".repeat(61) }, "orders.errors.invalidOption"],
      [{ playerSlots: "abc" }, "orders.errors.invalidOption"],
      [{ playerSlots: "0" }, "orders.errors.invalidOption"],
      [{ playerSlots: "100001" }, "orders.errors.invalidOption"],
      [{ backup: "tape" }, "orders.errors.invalidOption"],
      [{ serverName: "x".repeat(65) }, "orders.errors.serverNameTooLong"],
      [{ voucherCode: "V".repeat(41) }, "orders.errors.voucherNotFound"],
      [{ idempotencyKey: "k".repeat(15) }, stale],
      [{ idempotencyKey: ` ${"k".repeat(15)} ` }, stale],
      [{ idempotencyKey: "k".repeat(101) }, stale],
      // A list of the right shape, too long to be one the form wrote.
      [{ shownPrices: Array.from({ length: 600 }, () => "12:250").join(",") }, stale],
      [{ shownVatRate: "123456" }, stale],
      [{ shownVatRate: "x20" }, stale],
      [{ shownVatRate: "20x" }, stale],
    ];
    for (const [fields, expected] of cases)
      expect(message(fields), JSON.stringify(fields)).toBe(expected);
    expect(orderFormSchema.parse({ ...form, shownVatRate: "2000" }).shownVatRate).toBe(2000);
    expect(orderFormSchema.parse({ ...form, ddosProtection: "no" }).ddosProtection).toBe("no");
    // Spaces around a code are not part of it: 40 characters padded are still 40.
    expect(
      orderFormSchema.parse({ ...form, voucherCode: `  ${"v".repeat(40)}  ` }).voucherCode,
    ).toBe("V".repeat(40));
  });

  it("reads an admin's decision: an approval, or a rejection with a reason of at most 500 characters", () => {
    expect(decideOrderSchema.parse({ intent: "approve", orderId: "7" })).toEqual({
      intent: "approve",
      orderId: 7,
    });
    expect(
      decideOrderSchema.parse({ intent: "reject", orderId: "7", reason: " No stock " }),
    ).toEqual({ intent: "reject", orderId: 7, reason: "No stock" });
    for (const reason of [undefined, "   ", "r".repeat(501)]) {
      const refused = decideOrderSchema.safeParse({ intent: "reject", orderId: "7", reason });
      expect(refused.success, String(reason)).toBe(false);
    }
    for (const reason of [undefined, "   "])
      expect(
        decideOrderSchema.safeParse({ intent: "reject", orderId: "7", reason }).error?.issues[0]
          ?.message,
      ).toBe("orders.errors.reasonRequired");
  });

  it("reads the admin list's order number, dropping one past the largest id", () => {
    expect(orderListQuerySchema.parse({ id: "5" }).id).toBe(5);
    expect(orderListQuerySchema.parse({ id: "2147483648" }).id).toBeUndefined();
  });
});
