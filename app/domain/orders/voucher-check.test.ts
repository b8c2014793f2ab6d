import { describe, expect, it } from "vitest";
import { VoucherCheckLimiter } from "./voucher-check";
import { voucherCheckQuerySchema } from "./voucher-check.schemas";

describe("the voucher check", () => {
  it("reads the code as the order does (trimmed, upper case) with the form's defaults", () => {
    expect(voucherCheckQuerySchema.parse({ code: " welcome10 ", product: "2" })).toEqual({
      code: "WELCOME10",
      product: 2,
      billingCycle: "monthly",
      backup: "choliba",
    });
    const refused = voucherCheckQuerySchema.safeParse({ code: "", product: "x", backup: "tape" });
    expect(refused.error?.issues.map((issue) => issue.message).sort()).toEqual([
      "orders.errors.invalidOption",
      "orders.errors.required",
      "orders.errors.voucherNotFound",
    ]);
    expect(
      voucherCheckQuerySchema.safeParse({ code: "A", product: "2", billingCycle: "weekly" }).error
        ?.issues[0]?.message,
    ).toBe("orders.errors.invalidOption");
  });

  it("allows a customer a few checks a minute, each customer on their own", () => {
    const limiter = new VoucherCheckLimiter(3);
    const start = 1_000_000;
    expect([1, 2, 3, 4].map(() => limiter.take("a", start))).toEqual([true, true, true, false]);
    expect(limiter.take("b", start + 1)).toBe(true);
    expect(limiter.take("a", start + 59_999)).toBe(false);
    expect(limiter.take("a", start + 60_000)).toBe(true);
  });

  it("stays bounded when many keys come: a flood empties the map rather than growing it", () => {
    const limiter = new VoucherCheckLimiter(1, 10);
    for (let i = 0; i < 100; i++) expect(limiter.take(`k${i}`, 0)).toBe(true);
    const small = new VoucherCheckLimiter(1, 3);
    expect([small.take("a", 0), small.take("a", 0)]).toEqual([true, false]);
    expect([small.take("b", 0), small.take("c", 0)]).toEqual([true, true]);
    // Three keys held: a fourth empties the map, so "a" is counted afresh.
    expect(small.take("d", 0)).toBe(true);
    expect(small.take("a", 0)).toBe(true);
  });
});
