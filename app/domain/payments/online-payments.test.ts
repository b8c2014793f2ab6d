import { describe, expect, it } from "vitest";
import { coinsForRefund, verdictOf } from "./online-payments";

describe("the provider's word on a payment", () => {
  const asked = { amount: 5_500, currency: "MAD", reference: "TU-7K2M3" };
  const paid = {
    ok: true as const,
    state: "paid" as const,
    reference: "TU-7K2M3",
    amount: 5_500,
    currency: "mad",
    captureRef: "tx-1",
    refundedAmount: 0,
  };

  it("credits only exactly what was asked, in its currency, naming our reference", () => {
    expect(verdictOf(asked, paid)).toEqual({
      kind: "credit",
      amount: 5_500,
      currency: "MAD",
      captureRef: "tx-1",
    });
    expect(verdictOf(asked, { ...paid, amount: 5_499 })).toEqual({
      kind: "mismatch",
      detail: "amount 5499",
    });
    expect(verdictOf(asked, { ...paid, reference: null, currency: "EUR" })).toEqual({
      kind: "mismatch",
      detail: "reference none, currency EUR",
    });
    expect(verdictOf(asked, { ...paid, state: "pending" }).kind).toBe("pending");
    expect(verdictOf(asked, { ...paid, state: "failed", detail: "DECLINED" })).toEqual({
      kind: "failed",
      detail: "DECLINED",
    });
  });

  it("takes coins back in proportion, on the running total, never past the credit", () => {
    // 10 coins for 110.00 MAD, refunded in three parts that do not divide evenly.
    const parts = [3_333, 3_333, 4_334];
    let total = 0;
    let taken = 0;
    for (const part of parts) {
      taken += coinsForRefund(1_000, 11_000, total + part) - coinsForRefund(1_000, 11_000, total);
      total += part;
    }
    expect(taken).toBe(1_000);
    expect(coinsForRefund(1_000, 11_000, 99_999)).toBe(1_000);
    expect(coinsForRefund(1_000, 0, 5)).toBe(0);
  });
});
