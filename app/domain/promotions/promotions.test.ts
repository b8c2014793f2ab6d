import { describe, expect, it } from "vitest";
import { evaluateVoucher } from "~/domain/orders/orders";
import { expectRefusals } from "../../../tests/support/form-errors";
import { checkedProducts, lastDayPassed, parseApplicable, voucherStatus } from "./promotions";
import { voucherActionSchema, voucherListQuerySchema } from "./promotions.schemas";

const valid = {
  intent: "create",
  code: " spring-25 ",
  description: "Spring sale",
  discountType: "percentage",
  discountValue: "25",
  minPurchase: "5,00",
  maxUses: "100",
  validFrom: "2026-03-01",
  validUntil: "2026-03-31",
  appliesTo: "all",
};

describe("vouchers", () => {
  it("reads the form into a voucher ready to save", () => {
    expect(voucherActionSchema.parse(valid)).toEqual({
      intent: "create",
      voucher: {
        code: "SPRING-25",
        description: "Spring sale",
        discountType: "percentage",
        discountValue: 25,
        minPurchaseCents: 500,
        maxUses: 100,
        validFromDay: "2026-03-01",
        validUntilDay: "2026-03-31",
        applicableServices: "all",
      },
    });
    expect(
      voucherActionSchema.parse({
        ...valid,
        intent: "update",
        id: "3",
        discountType: "fixed",
        discountValue: "2,50",
        minPurchase: "",
        appliesTo: "selected",
        "product-9": "on",
        "product-4": "on",
        "product-x": "on",
        products: "1,2,3",
      }),
    ).toMatchObject({
      intent: "update",
      id: 3,
      voucher: {
        discountType: "fixed",
        discountValue: 250,
        minPurchaseCents: 0,
        applicableServices: [4, 9],
      },
    });
    expect(checkedProducts({ "product-5": "on", "product-6": "", other: "on" })).toEqual([5]);
  });

  it("refuses bad terms with a message each", () => {
    expectRefusals(voucherActionSchema, valid, [
      [
        { discountValue: "0" },
        { discountValue: "admin-catalogue.promotions.errors.percentInvalid" },
      ],
      [
        { discountValue: "101" },
        { discountValue: "admin-catalogue.promotions.errors.percentInvalid" },
      ],
      [
        { discountValue: "12.5" },
        { discountValue: "admin-catalogue.promotions.errors.percentInvalid" },
      ],
      [
        { discountType: "fixed", discountValue: "1.234" },
        { discountValue: "admin-catalogue.money.decimals" },
      ],
      [{ minPurchase: "-5" }, { minPurchase: "admin-catalogue.money.negative" }],
      [
        { validUntil: "2026-02-28" },
        { validUntil: "admin-catalogue.promotions.errors.datesOrder" },
      ],
      [{ validFrom: "2026-02-30" }, { validFrom: "admin-catalogue.promotions.errors.dateInvalid" }],
      [{ validFrom: "" }, { validFrom: "admin-catalogue.promotions.errors.dateRequired" }],
      [{ code: "a b" }, { code: "admin-catalogue.promotions.errors.codeInvalid" }],
      [{ code: "  " }, { code: "admin-catalogue.promotions.errors.codeRequired" }],
      [{ maxUses: "0" }, { maxUses: "admin-catalogue.promotions.errors.maxUsesInvalid" }],
      [
        { appliesTo: "selected" },
        { products: "admin-catalogue.promotions.errors.productsRequired" },
      ],
      // A one-day voucher is fine: both days are included.
      [{ validUntil: valid.validFrom }, {}],
    ]);
  });

  it("gives the status the order path would: inactive, not started, expired, used up, active", () => {
    const base = {
      isActive: true,
      validFrom: "2026-03-01T00:00:00.000Z",
      validUntil: "2026-03-31T23:59:59.999Z",
      usedCount: 0,
      maxUses: 2,
    };
    const at = (iso: string) => new Date(iso);
    expect(voucherStatus(base, at("2026-03-10T12:00:00Z"))).toBe("active");
    expect(voucherStatus(base, at("2026-02-28T23:59:59Z"))).toBe("scheduled");
    expect(voucherStatus(base, at("2026-04-01T00:00:00Z"))).toBe("expired");
    expect(voucherStatus({ ...base, usedCount: 2 }, at("2026-03-10T12:00:00Z"))).toBe("usedUp");
    expect(voucherStatus({ ...base, isActive: false }, at("2026-03-10T12:00:00Z"))).toBe(
      "inactive",
    );
    // The same verdicts as evaluateVoucher, which orders use.
    const terms = {
      ...base,
      id: 1,
      code: "X",
      discountType: "percentage" as const,
      discountValue: 10,
      minPurchaseCents: 0,
      applicableServices: "all" as const,
    };
    const verdict = (voucher: typeof terms, now: string) =>
      evaluateVoucher(voucher, { productId: 1, subtotalCents: 1000, now: at(now) });
    expect(verdict(terms, "2026-03-31T23:59:59.999Z").ok).toBe(true);
    expect(voucherStatus(terms, at("2026-03-31T23:59:59.999Z"))).toBe("active");
    expect(verdict(terms, "2026-02-28T23:59:59Z")).toMatchObject({
      error: "orders.errors.voucherNotStarted",
    });
  });

  it('reads the stored products a voucher applies to; anything but "all" or a list applies to nothing', () => {
    expect(parseApplicable('"all"')).toBe("all");
    expect(parseApplicable("[3, 1]")).toEqual([3, 1]);
    expect(parseApplicable('["4", 2.5, "x", 7]')).toEqual([4, 7]);
    expect(parseApplicable("[]")).toEqual([]);
    // Valid JSON that is not a list: never a voucher for everything, and no crash.
    for (const raw of ['"ALL"', '"some"', "{}", '{"ids":[1]}', "5", "null", "true"])
      expect(parseApplicable(raw)).toEqual([]);
    for (const raw of ["", "all", "[1,", "not json"]) expect(parseApplicable(raw)).toEqual([]);
    // Orders read it the same way: an empty list refuses every product.
    const order = { productId: 1, subtotalCents: 1000, now: new Date("2026-03-10T12:00:00Z") };
    const terms = {
      id: 1,
      code: "X",
      discountType: "percentage" as const,
      discountValue: 10,
      minPurchaseCents: 0,
      maxUses: 5,
      usedCount: 0,
      isActive: true,
      validFrom: "2026-03-01T00:00:00.000Z",
      validUntil: "2026-03-31T23:59:59.999Z",
    };
    expect(
      evaluateVoucher({ ...terms, applicableServices: parseApplicable("{}") }, order),
    ).toMatchObject({ ok: false, error: "orders.errors.voucherNotApplicable" });
    expect(
      evaluateVoucher({ ...terms, applicableServices: parseApplicable('"all"') }, order).ok,
    ).toBe(true);
  });

  it("reads the list's address and ignores what does not parse", () => {
    expect(voucherListQuerySchema.parse({ q: "welcome", status: "usedUp", page: "2" })).toEqual({
      q: "WELCOME",
      status: "usedUp",
      page: 2,
    });
    expect(voucherListQuerySchema.parse({ status: "bogus", page: "-4", edit: "x" })).toEqual({
      q: "",
      page: 1,
    });
  });
});

describe("lastDayPassed", () => {
  it("counts a last day whole, in UTC", () => {
    expect(lastDayPassed("2026-05-10", new Date("2026-05-10T00:00:00.000Z"))).toBe(false);
    expect(lastDayPassed("2026-05-10", new Date("2026-05-10T23:59:59.999Z"))).toBe(false);
    expect(lastDayPassed("2026-05-10", new Date("2026-05-11T00:00:00.000Z"))).toBe(true);
    expect(lastDayPassed("2026-05-11", new Date("2026-05-10T23:00:00.000Z"))).toBe(false);
  });
});
